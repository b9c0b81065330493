package shellcheck

import (
	"path"
	"strings"
)

// Editors, debuggers and other interactive programs run their own command
// language, so none is read-only. Pagers and man are (doc.go): what else
// they run comes from variables the environment allowlist drops or from
// configuration the sandbox confines; programs named on the command line
// are analysed as commands.
var interactiveHandlers = map[string]handler{
	"less":            pagerCmd,
	"more":            pagerCmd,
	"most":            pagerCmd,
	"pager":           pagerCmd,
	"sensible-pager":  pagerCmd,
	"editor":          editorCmd,
	"sensible-editor": editorCmd,
	"pip":             pipCmd,
	"pip3":            pipCmd,
	"pg":              pagerCmd,
	"man":             manCmd,
	"journalctl":      journalctlCmd,
	"vi":              editorCmd,
	"vim":             editorCmd,
	"nvim":            editorCmd,
	"view":            editorCmd,
	"ex":              editorCmd,
	"rvim":            editorCmd,
	"vimdiff":         editorCmd,
	"nano":            editorCmd,
	"emacs":           editorCmd,
	"ed":              editorCmd,
	"gdb":             editorCmd,
	"lldb":            editorCmd,
	"top":             runsCodeCmd("is an interactive program"),
	"htop":            runsCodeCmd("is an interactive program"),
	"busybox":         multiCallCmd,
	"toybox":          multiCallCmd,
	"openssl":         opensslCmd,
}

func pagerCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_14)
	i := a.emit(argv, cx, ReadOnly)
	for _, x := range argv[1:] {
		if x.lit && len(x.val) > 1 && x.val[0] == '+' {
			// less +!cmd: commands given on the command line run at start.
			a.out.Commands[i].raise(RunsCode, argv[0].val+" "+x.val+" runs pager commands given on the command line, which can run a shell")
			break
		}
	}
	for _, f := range values(flags, "-o", "-O", "--log-file", "--LOG-FILE") {
		a.checkWrite(i, arg{val: f.value, lit: f.lit})
	}
	a.readHint(argv[0].val, ops)
	if cx.in != nil && cx.in.file != nil {
		a.readHint(argv[0].val, []arg{*cx.in.file})
	}
}

// manCmd: man formats a page through its pager; a program named on the
// command line (-P, --pager, --html=BROWSER, -Hbrowser) is analysed as a
// command.
func manCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	var programs []arg
	for k := 0; k < len(args); k++ {
		x := args[k]
		if !x.lit {
			continue
		}
		v := x.val
		switch {
		case v == "-P" || v == "--pager" || v == "-B" || v == "-X" || v == "--browser":
			if k+1 < len(args) {
				programs = append(programs, args[k+1])
				k++
			}
		case strings.HasPrefix(v, "--pager=") || strings.HasPrefix(v, "--html=") || strings.HasPrefix(v, "--browser="):
			_, p, _ := strings.Cut(v, "=")
			programs = append(programs, arg{val: p, lit: true})
		case len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:2], "PHBX"):
			// -Hbrowser, -Pprogram: the value is glued to the option.
			programs = append(programs, arg{val: v[2:], lit: true})
		}
	}
	i := a.emit(argv, cx, ReadOnly)
	for _, p := range programs {
		if !p.lit {
			a.out.Commands[i].raise(Dangerous, "runs a program computed at run time ("+p.val+")")
			continue
		}
		a.out.Commands[i].raise(RunsCode, "man runs the program it is told to use ("+p.val+")")
		for _, r := range a.commandValue("man", p.val) {
			a.out.Commands[i].raise(r.class, r.why)
		}
	}
}

// journalctlCmd: reading the journal only reads (its pager is a pager,
// see above); the maintenance options change it.
func journalctlCmd(a *analyzer, argv []arg, cx *callCtx) {
	for _, x := range argv[1:] {
		if x.lit && (strings.HasPrefix(x.val, "--vacuum") || x.val == "--rotate" || x.val == "--flush" || x.val == "--sync" || x.val == "--relinquish-var" || x.val == "--setup-keys" || x.val == "--update-catalog") {
			a.emit(argv, cx, Mutating, "changes the journal")
			return
		}
	}
	a.emit(argv, cx, ReadOnly)
}

// editorCmd: editors and debuggers have command languages that run shell
// commands (:!sh, !sh, shell); commands given on the command line are
// dangerous, and the program itself runs code.
func editorCmd(a *analyzer, argv []arg, cx *callCtx) {
	name := argv[0].val
	i := a.emit(argv, cx, RunsCode, name+" is an interactive program whose commands can run anything")
	for _, x := range argv[1:] {
		if !x.lit {
			continue
		}
		v := x.val
		if (strings.HasPrefix(v, "+") && len(v) > 1) || v == "-c" || v == "--cmd" || v == "-S" || v == "-ex" || v == "--ex" ||
			v == "-x" || v == "--command" || v == "--eval-command" || v == "-iex" || v == "-s" ||
			v == "--eval" || v == "-l" || v == "--load" || v == "-batch" || v == "--batch" || v == "-u" ||
			strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--eval-command=") || strings.HasPrefix(v, "-ex=") {
			a.out.Commands[i].raise(Dangerous, name+" "+v+" runs editor or debugger commands given on the command line, which can run any program")
			return
		}
	}
}

// multiCallCmd: busybox and toybox run the applet named by their first
// argument; it is analysed as that command.
func multiCallCmd(a *analyzer, argv []arg, cx *callCtx) {
	if len(argv) < 2 || (argv[1].lit && strings.HasPrefix(argv[1].val, "-")) {
		a.emit(argv, cx, ReadOnly)
		return
	}
	a.run(argv[1:], cx.wrap(path.Base(argv[0].val)))
}

// opensslCmd: s_client and s_server open network connections (a known
// reverse-shell carrier); enc, dgst and friends read and write files.
func opensslCmd(a *analyzer, argv []arg, cx *callCtx) {
	sub := ""
	if len(argv) > 1 && argv[1].lit {
		sub = argv[1].val
	}
	switch sub {
	case "s_client", "s_server", "s_time", "ocsp":
		a.emit(argv, cx, Dangerous, "openssl "+sub+" opens a network connection: it can carry a shell or local data")
		return
	case "version", "help", "list", "ciphers", "x509", "req", "verify", "rand", "dgst", "enc", "base64", "speed", "errstr", "asn1parse", "crl", "sess_id":
	default:
		a.emit(argv, cx, Mutating, "")
		return
	}
	i := a.emit(argv, cx, ReadOnly)
	for k, x := range argv {
		if x.lit && (x.val == "-out" || x.val == "-keyout") && k+1 < len(argv) {
			a.checkWrite(i, argv[k+1])
		}
	}
}

// pipCmd: pip install builds and runs packages' setup code; listing and
// showing only read.
func pipCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec{stopAtOperand: true})
	if len(ops) == 0 || (ops[0].lit && (ops[0].val == "list" || ops[0].val == "show" || ops[0].val == "freeze" || ops[0].val == "check" || ops[0].val == "help" || ops[0].val == "search")) {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if ops[0].lit && (ops[0].val == "install" || ops[0].val == "download" || ops[0].val == "wheel") {
		a.emit(argv, cx, RunsCode, argv[0].val+" "+ops[0].val+" builds packages, running their setup code")
		return
	}
	a.emit(argv, cx, Mutating, "")
}
