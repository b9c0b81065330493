package shellcheck

import "strings"

// Package managers (npm, pnpm, yarn, bun): their scripts, installs and
// exec commands run package code; listing and showing only read.

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

// pkgRunsCode are package-manager commands that run package code: install
// scripts, create-* packages, binaries.
var pkgRunsCode = set("install", "i", "add", "ci", "install-test", "it", "update", "up", "upgrade", "rebuild",
	"exec", "x", "dlx", "start", "stop", "restart", "create", "init", "install-ci-test", "cit", "link", "ln")

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
	if pm == "bun" && bunEval(a, argv, cx) {
		return
	}
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
			a.emit(argv, cx, RunsCode, "yarn with no command installs dependencies and runs their install scripts")
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
		i := a.checkCmd(a.emit(argv, cx, RunsCode, pm+" test runs the package's test script"))
		if scriptArgsWrite(rest) {
			a.out.Commands[i].raise(Mutating, "test options ask it to write files")
		}
	case cmd == "run" || cmd == "run-script" || cmd == "rum" || cmd == "urn" || (!pkgBuiltins[cmd] && pm != "npm") ||
		(cmd == "build" && (pm == "yarn" || pm == "pnpm")):
		// yarn and pnpm have no build of their own: yarn build runs the
		// package's build script.
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
		i := a.emit(argv, cx, RunsCode, pm+" runs the package script "+script)
		if readOnlyScript(script) {
			a.checkCmd(i)
		}
		if !readOnlyScript(script) || scriptArgsWrite(rest) {
			a.out.Commands[i].raise(Mutating, "the script "+script+" may change files")
		}
	case pkgRunsCode[cmd]:
		for _, x := range rest {
			if x.lit && x.val == "--ignore-scripts" {
				a.emit(argv, cx, Mutating, "")
				return
			}
		}
		a.emit(argv, cx, RunsCode, pm+" "+cmd+" runs package scripts or packages")
	default:
		a.emit(argv, cx, Mutating, "")
	}
}

// bunEval classifies bun -e/--eval/-p/--print CODE as the code it runs
// (bun x.js runs a file; -e runs the next word), and reports whether it
// did: without it the code was taken for a package script's name and its
// sockets went unseen.
func bunEval(a *analyzer, argv []arg, cx *callCtx) bool {
	for k := 1; k < len(argv); k++ {
		x := argv[k]
		code, ok := "", false
		switch {
		case !x.lit:
			continue
		case (x.val == "-e" || x.val == "--eval" || x.val == "-p" || x.val == "--print") && k+1 < len(argv):
			code, ok = argv[k+1].val, argv[k+1].lit
		case strings.HasPrefix(x.val, "--eval=") || strings.HasPrefix(x.val, "--print="):
			_, code, _ = strings.Cut(x.val, "=")
			ok = true
		default:
			continue
		}
		i := a.emit(argv, cx, RunsCode, "runs bun code given on the command line")
		if !ok {
			a.out.Commands[i].raise(Dangerous, "runs bun code computed at run time ("+code+")")
			return true
		}
		a.inlineCode(i, "bun", code)
		return true
	}
	return false
}
