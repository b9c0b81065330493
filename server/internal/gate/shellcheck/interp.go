package shellcheck

import "strings"

// Language interpreters: version queries and linters are read-only,
// running any code is runs-code, and code that reaches the network (or
// comes from it, or from a decoder) is dangerous.

// pythonReadOnlyModules are linters that only report; they import no
// project code.
var pythonReadOnlyModules = set("mypy", "pyflakes", "flake8", "pyright", "tabnanny", "py_compile", "json.tool")

// pythonTestModules import and run the project's code.
var pythonTestModules = set("pytest", "unittest", "doctest", "pylint", "pydoc", "nose", "nose2", "tox", "coverage")

// pythonServerModules listen on or connect to the network.
var pythonServerModules = set("http.server", "SimpleHTTPServer", "CGIHTTPServer", "smtpd", "ftplib", "pyftpdlib",
	"telnetlib", "xmlrpc.server", "aiosmtpd", "uploadserver", "socketserver")

var interpCodeFlags = map[string][]string{
	"python": {"-c"}, "python3": {"-c"}, "python2": {"-c"},
	"perl": {"-e", "-E"}, "ruby": {"-e"}, "node": {"-e", "--eval", "-p", "--print"},
	"nodejs": {"-e", "--eval", "-p", "--print"}, "php": {"-r"}, "lua": {"-e"},
	"Rscript": {"-e"}, "deno": {"eval"}, "osascript": {"-e"}, "julia": {"-e", "--eval", "-E", "--print"},
	"jrunscript": {"-e"}, "jjs": {"-e"}, "pwsh": {"-c", "-Command", "-command", "-C", "-EncodedCommand", "-enc", "-ec"},
	"powershell": {"-c", "-Command", "-command", "-C", "-EncodedCommand", "-enc", "-ec"}, "expect": {"-c"},
	"csh": {"-c"}, "tcsh": {"-c"}, "R": {"-e"}, "elixir": {"-e"}, "erl": {"-eval"}, "guile": {"-c"}, "gjs": {"-c"},
}

// interpCmd classifies language interpreters: version queries and test
// runners are read-only, running any code is mutating, and running code
// from the network or a decoder is dangerous.
func interpCmd(a *analyzer, argv []arg, cx *callCtx) {
	name := argv[0].val
	args := argv[1:]
	if len(args) == 1 && args[0].lit && (args[0].val == "--version" || args[0].val == "-V" || args[0].val == "-v" || args[0].val == "--help" || args[0].val == "-h") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	base := strings.TrimRight(name, "0123456789.")
	if name == "php" {
		for _, x := range args {
			if x.lit && (x.val == "-S" || strings.HasPrefix(x.val, "-S")) {
				a.emit(argv, cx, Dangerous, "php -S serves the workspace over the network")
				return
			}
		}
	}
	if base == "python" && len(args) >= 2 && args[0].lit && args[0].val == "-m" && args[1].lit {
		mod := args[1].val
		switch {
		case pythonTestModules[mod]:
			a.checkCmd(a.emit(argv, cx, RunsCode, "python -m "+mod+" runs the project's tests"))
			return
		case pythonServerModules[mod]:
			a.emit(argv, cx, Dangerous, "python -m "+mod+" serves files or opens connections over the network")
			return
		case pythonReadOnlyModules[mod]:
			a.emit(argv, cx, ReadOnly, "")
			return
		case mod == "pip" && len(args) >= 3 && args[2].lit && (args[2].val == "list" || args[2].val == "show" || args[2].val == "freeze" || args[2].val == "check"):
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.emit(argv, cx, RunsCode, "runs the Python module "+mod)
		return
	}
	for _, x := range args {
		if x.procSubst {
			a.emit(argv, cx, Dangerous, "runs "+name+" code produced by a command at run time ("+x.val+")")
			return
		}
		if !x.lit {
			continue
		}
	}
	for k, x := range args {
		if !x.lit {
			continue
		}
		for _, f := range interpCodeFlags[name] {
			code, ok := "", false
			switch {
			case x.val == f && k+1 < len(args):
				code, ok = args[k+1].val, args[k+1].lit
			case strings.HasPrefix(x.val, f) && len(f) == 2 && len(x.val) > 2:
				code, ok = x.val[2:], true
			case strings.HasPrefix(x.val, f+"="):
				code, ok = x.val[len(f)+1:], true
			case (name == "perl" || name == "ruby") && k+1 < len(args) && shortBundle(name, x.val) &&
				strings.HasSuffix(x.val, f[1:]):
				// A bundle of short options ending in -e: perl -lne CODE.
				code, ok = args[k+1].val, args[k+1].lit
			default:
				continue
			}
			i := a.emit(argv, cx, RunsCode, "runs "+name+" code given on the command line")
			if strings.HasPrefix(strings.ToLower(f), "-e") && (name == "pwsh" || name == "powershell") && f != "-c" {
				a.out.Commands[i].raise(Dangerous, "runs PowerShell code decoded at run time ("+f+")")
				return
			}
			if !ok {
				a.out.Commands[i].raise(Dangerous, "runs "+name+" code computed at run time ("+code+")")
				return
			}
			// Modules loaded on the command line are part of the code:
			// perl -MIO::Socket, ruby -rsocket.
			a.inlineCode(i, name, strings.Join(append(loadedModules(name, args), code), "\n"))
			return
		}
	}
	_, ops := parseArgs(args, spec_shells_0)
	if len(ops) == 0 || (ops[0].lit && ops[0].val == "-") {
		a.stdinScript(argv, cx, false)
		return
	}
	a.emit(argv, cx, RunsCode, "runs the "+name+" program "+ops[0].val)
}

// moduleFlags take the module to load attached (perl -MLWP::Simple,
// ruby -rsocket) or, for ruby -r and -I, as the next word.
var moduleFlags = map[string]string{"perl": "Mm", "ruby": "r"}

// valueFlags are the short options of perl and ruby that take a value
// attached; a word starting with one is not a bundle of flags.
var valueFlags = map[string]string{"perl": "MmIixCdDV", "ruby": "rIECxTKWF"}

// shortBundle reports whether w is a bundle of flag letters (perl -lne),
// not an option with a value such as -MLWP::Simple, whose last letter
// says nothing about -e.
func shortBundle(name, w string) bool {
	if len(w) <= 2 || w[0] != '-' || w[1] == '-' || strings.ContainsRune(valueFlags[name], rune(w[1])) {
		return false
	}
	for _, r := range w[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// loadedModules are the modules argv loads with -M, -m or -r, as the
// statements that would load them in code.
func loadedModules(name string, args []arg) []string {
	flags := moduleFlags[name]
	if flags == "" {
		return nil
	}
	var out []string
	for k, x := range args {
		if len(x.val) < 2 || x.val[0] != '-' || !strings.ContainsRune(flags, rune(x.val[1])) {
			continue
		}
		mod := x.val[2:]
		if mod == "" && k+1 < len(args) {
			mod = args[k+1].val
		}
		if mod != "" {
			out = append(out, "use "+mod+";")
		}
	}
	return out
}
