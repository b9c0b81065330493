package shellcheck

import (
	"strings"
)

// Developer tools. Test runners, linters and type checkers are read-only
// when their options do not write (see doc.go for why running tests counts
// as read-only); builds, installs and formatters that rewrite are mutating.
var toolHandlers = map[string]handler{
	"git":      gitCmd,
	"go":       goCmd,
	"gofmt":    fixFlagCmd([]string{"-w"}, "rewrites files"),
	"npm":      pkgCmd,
	"pnpm":     pkgCmd,
	"yarn":     pkgCmd,
	"bun":      pkgCmd,
	"npx":      mutatingCmd("may download and run a package"),
	"pnpx":     mutatingCmd("may download and run a package"),
	"bunx":     mutatingCmd("may download and run a package"),
	"tsc":      tscCmd,
	"eslint":   fixFlagCmd([]string{"--fix", "-o", "--output-file", "--init"}, "fixes files or writes a report"),
	"prettier": fixFlagCmd([]string{"--write", "-w"}, "rewrites files"),
	"jest":     fixFlagCmd([]string{"-u", "--updateSnapshot", "--ci=false", "--outputFile", "--coverageDirectory"}, "updates snapshots or writes reports"),
	"vitest":   fixFlagCmd([]string{"-u", "--update", "--outputFile"}, "updates snapshots or writes reports"),
	"pytest":   fixFlagCmd([]string{"--junitxml", "--junit-xml", "--basetemp", "--snapshot-update", "--resultlog"}, "writes reports or snapshots"),
	"mypy":     fixFlagCmd([]string{"--install-types"}, "installs packages"),
	"ruff":     ruffCmd,
	"cargo":    cargoCmd,
	"make":     makeCmd,
	"docker":   dockerCmd,
	"podman":   dockerCmd,
	"kubectl":  kubectlCmd,
}

// fixFlagCmd is read-only unless one of the options that write is given.
func fixFlagCmd(writing []string, why string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		for _, x := range argv[1:] {
			if !x.lit {
				continue
			}
			name, _, _ := strings.Cut(x.val, "=")
			for _, w := range writing {
				if name == w || x.val == w {
					a.emit(argv, cx, Mutating, argv[0].val+" "+w+" "+why)
					return
				}
			}
		}
		a.emit(argv, cx, ReadOnly)
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
		for _, x := range rest {
			if !x.lit {
				continue
			}
			name, _, _ := strings.Cut(x.val, "=")
			name = "-" + strings.TrimLeft(name, "-")
			if goTestWriting[name] {
				a.emit(argv, cx, Mutating, "go "+sub+" "+name+" writes files or runs another program")
				return
			}
		}
		a.emit(argv, cx, ReadOnly)
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
	case "run":
		a.emit(argv, cx, Mutating, "go run runs a program")
	default:
		a.emit(argv, cx, Mutating, "go "+sub+" changes files or the module cache")
	}
}

// readOnlyScripts are package.json script names that, by convention, only
// check the project: tests, linters, type checkers.
var readOnlyScripts = set("test", "tests", "lint", "type-check", "typecheck", "check", "types", "tsc", "check-types", "vitest", "jest", "unit", "e2e")

func readOnlyScript(name string) bool {
	low := strings.ToLower(name)
	for _, bad := range []string{"fix", "write", "update", "snap", "watch"} {
		if strings.Contains(low, bad) {
			return false
		}
	}
	base, _, _ := strings.Cut(low, ":")
	return readOnlyScripts[base] || strings.HasSuffix(low, ":check")
}

// scriptArgsWrite reports whether arguments passed to a script ask it to
// write (eslint --fix, jest -u, prettier --write).
func scriptArgsWrite(args []arg) bool {
	for _, x := range args {
		if !x.lit {
			return true
		}
		switch name, _, _ := strings.Cut(x.val, "="); name {
		case "--fix", "--write", "-w", "-u", "--update", "--updateSnapshot", "--update-snapshots", "--outputFile", "-o", "--output-file", "--coverage", "--watch":
			return true
		}
	}
	return false
}

var pkgReadOnly = set("ls", "list", "ll", "la", "view", "info", "show", "outdated", "help", "explain",
	"why", "root", "prefix", "bin", "search", "doctor", "fund", "-v", "--version", "-h", "--help", "licenses", "audit")

var pkgBuiltins = set("install", "i", "add", "remove", "rm", "uninstall", "un", "unlink", "link", "ln", "update", "up", "upgrade",
	"ci", "publish", "pack", "init", "create", "dlx", "exec", "x", "run", "run-script", "rum", "urn", "start", "stop", "restart",
	"build", "rebuild", "dedupe", "prune", "cache", "config", "set", "get", "version", "login", "logout", "adduser",
	"owner", "team", "token", "access", "deprecate", "dist-tag", "hook", "org", "profile", "shrinkwrap", "star",
	"unpublish", "unstar", "patch", "import", "set-script", "pkg", "workspace", "workspaces", "node", "env", "store",
	"t", "test", "tst", "ls", "list", "why", "outdated", "audit", "view", "info", "help", "-v", "--version")

// pkgCmd classifies npm, pnpm, yarn and bun.
func pkgCmd(a *analyzer, argv []arg, cx *callCtx) {
	pm := argv[0].val
	var global bool
	args := argv[1:]
	for _, x := range args {
		if x.lit && (x.val == "-g" || x.val == "--global" || x.val == "--location=global") {
			global = true
		}
	}
	// Skip global options such as --prefix dir, -C dir, --silent.
	ops := []arg{}
	for k := 0; k < len(args); k++ {
		x := args[k]
		if x.lit && strings.HasPrefix(x.val, "-") && len(ops) == 0 {
			if (x.val == "--prefix" || x.val == "-C" || x.val == "--cwd" || x.val == "--dir" || x.val == "--filter" || x.val == "-F" || x.val == "-w" || x.val == "--workspace") && k+1 < len(args) {
				k++
			}
			continue
		}
		ops = append(ops, x)
	}
	if len(ops) == 0 {
		for _, x := range args {
			if x.lit && (x.val == "--version" || x.val == "-v" || x.val == "--help" || x.val == "-h") {
				a.emit(argv, cx, ReadOnly)
				return
			}
		}
		if pm == "yarn" {
			a.emit(argv, cx, Mutating, "yarn with no command installs dependencies")
			return
		}
		a.emit(argv, cx, ReadOnly)
		return
	}
	if !ops[0].lit {
		a.emit(argv, cx, Dangerous, pm+" command computed at run time ("+ops[0].val+")")
		return
	}
	cmd := ops[0].val
	rest := ops[1:]
	switch {
	case global && (cmd == "install" || cmd == "i" || cmd == "add" || cmd == "uninstall" || cmd == "remove" || cmd == "rm" || cmd == "link" || cmd == "update" || cmd == "up"):
		a.emit(argv, cx, Dangerous, "changes globally installed packages, outside the workspace")
	case cmd == "config" || cmd == "set" || cmd == "c":
		if len(rest) > 0 && rest[0].lit && (rest[0].val == "get" || rest[0].val == "list" || rest[0].val == "ls") {
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.emit(argv, cx, Dangerous, "changes the package manager's user configuration (~/.npmrc)")
	case cmd == "audit":
		if len(rest) > 0 && rest[0].lit && rest[0].val == "fix" {
			a.emit(argv, cx, Mutating, "audit fix changes dependencies")
			return
		}
		a.emit(argv, cx, ReadOnly)
	case cmd == "version" || cmd == "-v" || cmd == "--version":
		if len(rest) > 0 {
			a.emit(argv, cx, Mutating, "bumps the package version")
			return
		}
		a.emit(argv, cx, ReadOnly)
	case cmd == "pack" || cmd == "publish":
		for _, x := range rest {
			if x.lit && x.val == "--dry-run" {
				a.emit(argv, cx, ReadOnly)
				return
			}
		}
		a.emit(argv, cx, Mutating, "")
	case pkgReadOnly[cmd]:
		a.emit(argv, cx, ReadOnly)
	case cmd == "test" || cmd == "t" || cmd == "tst":
		if scriptArgsWrite(rest) {
			a.emit(argv, cx, Mutating, "test options ask it to write files")
			return
		}
		a.emit(argv, cx, ReadOnly)
	case cmd == "run" || cmd == "run-script" || cmd == "rum" || cmd == "urn" || (!pkgBuiltins[cmd] && pm != "npm"):
		script := cmd
		if cmd == "run" || cmd == "run-script" || cmd == "rum" || cmd == "urn" {
			if len(rest) == 0 {
				a.emit(argv, cx, ReadOnly)
				return
			}
			if !rest[0].lit {
				a.emit(argv, cx, Dangerous, "script name computed at run time ("+rest[0].val+")")
				return
			}
			script, rest = rest[0].val, rest[1:]
		}
		if readOnlyScript(script) && !scriptArgsWrite(rest) {
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.emit(argv, cx, Mutating, "runs the package script "+script)
	default:
		a.emit(argv, cx, Mutating, "")
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
	case "test", "check", "clippy", "tree", "metadata", "version", "help", "search", "bench", "doc", "verify-project", "--version", "-V":
		if scriptArgsWrite(rest) {
			a.emit(argv, cx, Mutating, "fixes or writes files")
			return
		}
		a.emit(argv, cx, ReadOnly)
	case "fmt":
		for _, x := range rest {
			if x.lit && x.val == "--check" {
				a.emit(argv, cx, ReadOnly)
				return
			}
		}
		a.emit(argv, cx, Mutating, "cargo fmt rewrites files")
	case "install", "uninstall":
		a.emit(argv, cx, Mutating, "installs binaries outside the workspace")
	default:
		a.emit(argv, cx, Mutating, "")
	}
}

func makeCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], spec_tools_0)
	if has(flags, "-n", "--dry-run", "--just-print", "--recon", "-q", "--question", "-p", "--print-data-base") && !has(flags, "-t", "--touch") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	a.emit(argv, cx, Mutating, "runs Makefile recipes")
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
	spec_tools_0 = spec{valued: set("-C", "-f", "-j", "-l", "-o", "-W", "-I", "--directory", "--file", "--makefile", "--jobs")}
	spec_tools_1 = spec{stopAtOperand: true, valued: set("-H", "--host", "-c", "--context", "--config", "-l", "--log-level")}
	spec_tools_2 = spec{stopAtOperand: true, valued: set("-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output")}
)
