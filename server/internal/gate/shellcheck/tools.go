package shellcheck

import (
	"strings"
)

// Developer tools. Linters and type checkers that only read are read-only;
// test runners, package scripts, Makefiles and anything else that executes
// the project's own code (or its JavaScript configuration) runs code; builds
// and formatters that rewrite are mutating. Options that name output files
// are checked as writes.
var toolHandlers = map[string]handler{
	"git":        gitCmd,
	"go":         goCmd,
	"gofmt":      fixFlagCmd([]string{"-w"}, "rewrites files"),
	"npm":        pkgCmd,
	"pnpm":       pkgCmd,
	"yarn":       pkgCmd,
	"bun":        pkgCmd,
	"npx":        runsCodeCmd("may download a package and runs it"),
	"pnpx":       runsCodeCmd("may download a package and runs it"),
	"bunx":       runsCodeCmd("may download a package and runs it"),
	"tsc":        tscCmd,
	"eslint":     codeFlagCmd([]string{"--fix", "-o", "--output-file", "--init"}, "loads the project's JavaScript configuration and plugins"),
	"prettier":   codeFlagCmd([]string{"--write", "-w"}, "loads the project's JavaScript configuration and plugins"),
	"jest":       codeFlagCmd([]string{"-u", "--updateSnapshot", "--outputFile", "--coverageDirectory"}, "runs the project's tests"),
	"vitest":     codeFlagCmd([]string{"-u", "--update", "--outputFile"}, "runs the project's tests"),
	"mocha":      codeFlagCmd(nil, "runs the project's tests"),
	"pytest":     codeFlagCmd([]string{"--junitxml", "--junit-xml", "--basetemp", "--resultlog"}, "runs the project's tests"),
	"tox":        runsCodeCmd("runs the project's test environments"),
	"nox":        runsCodeCmd("runs the project's sessions"),
	"rake":       runsCodeCmd("runs the project's Rakefile"),
	"gradle":     runsCodeCmd("runs the project's Gradle build"),
	"gradlew":    runsCodeCmd("runs the project's Gradle build"),
	"mvn":        runsCodeCmd("runs the project's Maven build"),
	"mvnw":       runsCodeCmd("runs the project's Maven build"),
	"dotnet":     runsCodeCmd("builds and runs .NET code"),
	"just":       runsCodeCmd("runs the project's justfile recipes"),
	"task":       runsCodeCmd("runs the project's Taskfile"),
	"phpunit":    runsCodeCmd("runs the project's tests"),
	"rspec":      runsCodeCmd("runs the project's tests"),
	"ctest":      runsCodeCmd("runs the project's tests"),
	"playwright": runsCodeCmd("runs the project's tests"),
	"cypress":    runsCodeCmd("runs the project's tests"),
	"mypy":       fixFlagCmd([]string{"--install-types"}, "installs packages"),
	"ruff":       ruffCmd,
	"cargo":      cargoCmd,
	"make":       makeCmd,
	"docker":     dockerCmd,
	"podman":     dockerCmd,
	"kubectl":    kubectlCmd,
}

// fixFlagCmd is read-only unless one of the options that write is given.
func fixFlagCmd(writing []string, why string) handler {
	return flagClassCmd(ReadOnly, "", writing, why)
}

// codeFlagCmd is for tools that run project code: they run code, and the
// options that write are checked as writes too.
func codeFlagCmd(writing []string, why string) handler {
	return flagClassCmd(RunsCode, why, writing, "writes files")
}

func runsCodeCmd(why string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) { a.emit(argv, cx, RunsCode, argv[0].val+" "+why) }
}

// flagClassCmd emits class c, raised to Mutating when one of the writing
// options is given; an option's value that is a path is checked as a write.
func flagClassCmd(c Class, cwhy string, writing []string, why string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		var reasons []string
		if cwhy != "" {
			reasons = append(reasons, argv[0].val+" "+cwhy)
		}
		i := a.emit(argv, cx, c, reasons...)
		if c == RunsCode && cwhy != "" {
			a.checkCmd(i)
		}
		args := argv[1:]
		for k, x := range args {
			if !x.lit {
				continue
			}
			name, val, hasVal := strings.Cut(x.val, "=")
			for _, w := range writing {
				if name != w {
					continue
				}
				a.out.Commands[i].raise(Mutating, argv[0].val+" "+w+" "+why)
				if !hasVal && k+1 < len(args) && !strings.HasPrefix(args[k+1].val, "-") && looksLikePath(args[k+1].val) {
					a.checkWrite(i, args[k+1])
				} else if hasVal && val != "" {
					a.checkWrite(i, arg{val: val, lit: true})
				}
			}
		}
	}
}

func ruffCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec{stopAtOperand: true})
	_ = flags
	if len(ops) > 0 && ops[0].lit && (ops[0].val == "check" || ops[0].val == "version") {
		fixFlagCmd([]string{"--fix", "--unsafe-fixes", "--add-noqa", "-o", "--output-file"}, "fixes files")(a, argv, cx)
		return
	}
	if len(ops) > 0 && ops[0].lit && ops[0].val == "format" {
		for _, x := range ops[1:] {
			if x.lit && (x.val == "--check" || x.val == "--diff") {
				a.emit(argv, cx, ReadOnly)
				return
			}
		}
	}
	a.emit(argv, cx, Mutating, "ruff may rewrite files")
}

func tscCmd(a *analyzer, argv []arg, cx *callCtx) {
	for _, x := range argv[1:] {
		if x.lit && (x.val == "--noEmit" || x.val == "-noEmit" || x.val == "--showConfig" || x.val == "--version" || x.val == "-v" || x.val == "--help" || x.val == "-h" || x.val == "--listFilesOnly") {
			a.emit(argv, cx, ReadOnly)
			return
		}
	}
	a.emit(argv, cx, Mutating, "tsc without --noEmit writes compiled files")
}

// goTestWriting are go test/vet flags that write files or run programs.
var goTestWriting = set("-o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile",
	"-mutexprofile", "-trace", "-outputdir", "-fuzz", "-exec", "-toolexec", "-test.coverprofile",
	"-test.cpuprofile", "-test.memprofile", "-test.trace", "-test.outputdir", "-vettool", "-update", "-args", "-json.out")

func goCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	if len(args) == 0 || !args[0].lit {
		if len(args) > 0 {
			a.emit(argv, cx, Dangerous, "go subcommand computed at run time ("+args[0].val+")")
			return
		}
		a.emit(argv, cx, ReadOnly)
		return
	}
	sub := args[0].val
	rest := args[1:]
	switch sub {
	case "test", "vet":
		c, why := ReadOnly, ""
		if sub == "test" {
			c, why = RunsCode, "go test builds and runs the project's tests"
		}
		i := a.checkCmd(a.emit(argv, cx, c, why))
		for k, x := range rest {
			if !x.lit {
				if strings.HasPrefix(x.val, "-") {
					name, _, _ := strings.Cut(x.val, "=")
					if goTestWriting["-"+strings.TrimLeft(name, "-")] {
						a.out.Commands[i].raise(Dangerous, "go "+sub+" option computed at run time ("+x.val+")")
					}
				}
				continue
			}
			name, v, hasEq := strings.Cut(x.val, "=")
			name = "-" + strings.TrimLeft(name, "-")
			if !goTestWriting[name] {
				continue
			}
			var val *arg
			switch {
			case hasEq:
				val = &arg{val: v, lit: true}
			case k+1 < len(rest):
				val = &rest[k+1]
			}
			sc := &a.out.Commands[i]
			switch name {
			case "-exec", "-toolexec", "-vettool":
				sc.raise(RunsCode, "go "+sub+" "+name+" runs another program")
				if val == nil || !val.lit {
					sc.raise(Dangerous, "go "+sub+" "+name+" runs a program computed at run time")
					continue
				}
				for _, r := range a.commandValue("go "+sub+" "+name, val.val) {
					a.out.Commands[i].raise(r.class, r.why)
				}
			case "-fuzz", "-update", "-args":
				sc.raise(Mutating, "go "+sub+" "+name+" writes files")
			default:
				sc.raise(Mutating, "go "+sub+" "+name+" writes files")
				if val != nil {
					a.checkWrite(i, *val)
				}
			}
		}
	case "version", "doc", "help", "list":
		a.emit(argv, cx, ReadOnly)
	case "env":
		for _, x := range rest {
			if x.lit && (x.val == "-w" || x.val == "-u") {
				a.emit(argv, cx, Dangerous, "go env -w changes the user's Go configuration, outside the workspace")
				return
			}
		}
		a.emit(argv, cx, ReadOnly)
	case "mod":
		if len(rest) > 0 && rest[0].lit && (rest[0].val == "graph" || rest[0].val == "why" || rest[0].val == "verify") {
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.emit(argv, cx, Mutating, "go mod changes module files")
	case "build":
		i := a.emit(argv, cx, Mutating, "go build writes binaries")
		for k, x := range rest {
			if x.lit && (x.val == "-o" || x.val == "--o") && k+1 < len(rest) {
				a.checkWrite(i, rest[k+1])
			} else if x.lit && strings.HasPrefix(x.val, "-o=") {
				a.checkWrite(i, arg{val: x.val[3:], lit: true})
			}
		}
	case "run", "generate":
		a.emit(argv, cx, RunsCode, "go "+sub+" runs the project's code")
	default:
		a.emit(argv, cx, Mutating, "go "+sub+" changes files or the module cache")
	}
}

func cargoCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec{stopAtOperand: true})
	if len(ops) == 0 || !ops[0].lit {
		a.emit(argv, cx, ReadOnly)
		return
	}
	rest := ops[1:]
	switch ops[0].val {
	case "tree", "metadata", "version", "help", "search", "verify-project", "--version", "-V", "locate-project", "pkgid":
		a.emit(argv, cx, ReadOnly)
	case "test", "t", "run", "r", "bench", "check", "c", "clippy", "doc", "d", "build", "b", "miri", "nextest":
		// Build scripts and procedural macros run even for check and clippy.
		i := a.emit(argv, cx, RunsCode, "cargo "+ops[0].val+" runs the project's build scripts and code")
		if ops[0].val != "run" && ops[0].val != "r" && ops[0].val != "build" && ops[0].val != "b" {
			a.checkCmd(i)
		}
		if scriptArgsWrite(rest) {
			a.out.Commands[i].raise(Mutating, "fixes or writes files")
		}
	case "fmt":
		for _, x := range rest {
			if x.lit && x.val == "--check" {
				a.emit(argv, cx, ReadOnly)
				return
			}
		}
		a.emit(argv, cx, Mutating, "cargo fmt rewrites files")
	case "install", "uninstall":
		a.emit(argv, cx, RunsCode, "builds and installs binaries outside the workspace")
	default:
		a.emit(argv, cx, Mutating, "")
	}
}

// makeCmd: make runs Makefile recipes; even -n, -q and -p expand $(shell
// ...) functions and run recipes marked with +, so every make runs code.
func makeCmd(a *analyzer, argv []arg, cx *callCtx) {
	a.emit(argv, cx, RunsCode, "make runs the project's Makefile recipes")
}

var dockerReadOnly = set("ps", "logs", "images", "inspect", "version", "info", "top", "port", "stats", "history", "diff", "events", "search")

func dockerCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec_tools_1)
	if len(ops) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if !ops[0].lit {
		a.emit(argv, cx, Dangerous, "docker command computed at run time ("+ops[0].val+")")
		return
	}
	cmd := ops[0].val
	rest := ops[1:]
	sub := ""
	if len(rest) > 0 && rest[0].lit {
		sub = rest[0].val
	}
	switch {
	case dockerReadOnly[cmd]:
		a.emit(argv, cx, ReadOnly)
	case (cmd == "container" || cmd == "image" || cmd == "volume" || cmd == "network" || cmd == "context" || cmd == "system") && (sub == "ls" || sub == "list" || sub == "inspect" || sub == "df" || sub == "info" || sub == "logs" || sub == "history"):
		a.emit(argv, cx, ReadOnly)
	case cmd == "compose" && (sub == "ps" || sub == "logs" || sub == "config" || sub == "images" || sub == "top" || sub == "version" || sub == "ls"):
		a.emit(argv, cx, ReadOnly)
	case (cmd == "system" || cmd == "volume" || cmd == "image" || cmd == "container" || cmd == "builder" || cmd == "network") && (sub == "prune" || (cmd == "volume" && (sub == "rm" || sub == "remove"))):
		a.emit(argv, cx, Dangerous, "permanently deletes docker data")
	case cmd == "run" || cmd == "create" || cmd == "exec":
		for k, x := range rest {
			if !x.lit {
				continue
			}
			v := x.val
			if v == "--privileged" || strings.HasPrefix(v, "--pid=host") || strings.HasPrefix(v, "--cap-add") {
				a.emit(argv, cx, Dangerous, "runs a container with host privileges")
				return
			}
			mount := ""
			switch {
			case (v == "-v" || v == "--volume" || v == "--mount") && k+1 < len(rest):
				mount = rest[k+1].val
			case strings.HasPrefix(v, "--volume=") || strings.HasPrefix(v, "--mount="):
				_, mount, _ = strings.Cut(v, "=")
			case strings.HasPrefix(v, "-v") && len(v) > 2:
				mount = v[2:]
			}
			if mount != "" {
				src, _, _ := strings.Cut(mount, ":")
				src = strings.TrimPrefix(strings.TrimPrefix(src, "type=bind,"), "source=")
				if strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, ".") {
					if pi := a.resolve(arg{val: src, lit: true}); pi.kind != pkInside && pi.kind != pkBuild && pi.kind != pkRoot {
						a.emit(argv, cx, Dangerous, "mounts "+src+" into a container: "+pi.why)
						return
					}
				}
			}
		}
		a.emit(argv, cx, Mutating, "runs a container")
	default:
		a.emit(argv, cx, Mutating, "")
	}
}

var kubectlReadOnly = set("get", "describe", "logs", "version", "explain", "top", "api-resources", "api-versions", "cluster-info", "diff")

func kubectlCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec_tools_2)
	switch {
	case len(ops) == 0:
		a.emit(argv, cx, ReadOnly)
	case !ops[0].lit:
		a.emit(argv, cx, Dangerous, "kubectl command computed at run time")
	case kubectlReadOnly[ops[0].val]:
		a.emit(argv, cx, ReadOnly)
	case ops[0].val == "config" && len(ops) > 1 && (ops[1].val == "view" || ops[1].val == "get-contexts" || ops[1].val == "current-context"):
		a.emit(argv, cx, ReadOnly)
	case ops[0].val == "delete":
		a.emit(argv, cx, Dangerous, "deletes cluster resources")
	default:
		a.emit(argv, cx, Mutating, "changes cluster state")
	}
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_tools_1 = spec{stopAtOperand: true, valued: set("-H", "--host", "-c", "--context", "--config", "-l", "--log-level")}
	spec_tools_2 = spec{stopAtOperand: true, valued: set("-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output")}
)
