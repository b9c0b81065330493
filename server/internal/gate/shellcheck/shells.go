package shellcheck

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Shells and interpreters run code given as data. A literal script is parsed
// and analysed like the outer command; a script computed at run time cannot
// be seen and is dangerous.
var shellHandlers = map[string]handler{
	"bash": shellCmd, "sh": shellCmd, "zsh": shellCmd, "dash": shellCmd,
	"ksh": shellCmd, "ash": shellCmd, "mksh": shellCmd, "fish": shellCmd,
	"eval":   evalCmd,
	"source": sourceCmd,
	".":      sourceCmd,
	"trap":   trapCmd,
	"alias":  aliasCmd,
	"python": interpCmd, "python3": interpCmd, "python2": interpCmd,
	"perl": interpCmd, "ruby": interpCmd, "node": interpCmd, "nodejs": interpCmd,
	"php": interpCmd, "lua": interpCmd, "Rscript": interpCmd, "tclsh": interpCmd,
	"deno": interpCmd, "osascript": interpCmd, "julia": interpCmd, "jrunscript": interpCmd, "jjs": interpCmd,
	"pwsh": interpCmd, "powershell": interpCmd, "expect": interpCmd, "csh": interpCmd, "tcsh": interpCmd,
	"R": interpCmd, "irb": interpCmd, "gjs": interpCmd, "elixir": interpCmd, "erl": interpCmd, "guile": interpCmd,
}

// shellString analyses a literal script string run by sub-command i.
func (a *analyzer) shellString(script arg, via string, i int) {
	if !script.lit {
		a.out.Commands[i].raise(Dangerous, "runs a script computed at run time ("+script.val+")")
		return
	}
	sub := a.out.Commands[i]
	a.nested(script.val, via, &sub)
	a.out.Commands[i].Class, a.out.Commands[i].Reasons, a.out.Commands[i].top = sub.Class, sub.Reasons, sub.top
}

func shellCmd(a *analyzer, argv []arg, cx *callCtx) {
	name := argv[0].val
	args := argv[1:]
	cmode, smode := false, false
	i := 0
loop:
	for ; i < len(args); i++ {
		x := args[i]
		if !x.lit {
			break
		}
		v := x.val
		switch {
		case v == "--" || v == "-":
			i++
			break loop
		case v == "--rcfile" || v == "--init-file" || v == "-o" || v == "+o" || v == "-O" || v == "+O":
			i++
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if strings.ContainsRune(v[1:], 'c') {
				cmode = true
			}
			if strings.ContainsRune(v[1:], 's') {
				smode = true
			}
			// -o and -O inside a group take the next word as their value.
			if strings.ContainsAny(v[1:], "oO") {
				i++
			}
		default:
			break loop
		}
	}
	rest := args[min(i, len(args)):]
	switch {
	case cmode:
		if len(rest) == 0 {
			a.emit(argv, cx, Mutating, name+" -c without a script")
			return
		}
		script := rest[0]
		if !script.lit {
			a.emit(argv, cx, Dangerous, "runs a script computed at run time ("+script.val+")")
			return
		}
		sub := a.newSub(argv, cx)
		a.nested(script.val, name+" -c", &sub)
		if sub.Class > ReadOnly {
			a.push(sub)
		}
	case !smode && len(rest) > 0:
		a.scriptFile(argv, cx, rest[0])
	default:
		a.stdinScript(argv, cx, true)
	}
}

// scriptFile classifies running the script file f.
func (a *analyzer) scriptFile(argv []arg, cx *callCtx, f arg) {
	switch {
	case f.procSubst:
		a.emit(argv, cx, Dangerous, "runs a script produced by a command at run time ("+f.val+")")
	case !f.lit || f.stdin:
		a.emit(argv, cx, Dangerous, "runs a script whose path is computed at run time ("+f.val+")")
	case f.val == "/dev/stdin" || f.val == "-":
		a.stdinScript(argv, cx, true)
	default:
		a.emit(argv, cx, RunsCode, "runs the script "+f.val)
	}
}

// stdinScript classifies a shell (or interpreter, when shell is false)
// reading its program from standard input.
func (a *analyzer) stdinScript(argv []arg, cx *callCtx, shell bool) {
	name := argv[0].val
	in := cx.in
	switch {
	case in == nil:
		a.emit(argv, cx, RunsCode, name+" reads commands from standard input")
	case in.hdoc != nil || in.hstring != nil:
		var text string
		ok := false
		if in.hdoc != nil {
			text, ok = a.heredocText(in.hdoc)
		} else if ws := a.word(in.hstring); len(ws) == 1 && ws[0].lit {
			text, ok = ws[0].val, true
		}
		if !ok {
			a.emit(argv, cx, Dangerous, name+" runs a here-document whose text is computed at run time")
			return
		}
		if !shell {
			i := a.emit(argv, cx, RunsCode, "runs "+name+" code")
			a.inlineCode(i, name, text)
			return
		}
		sub := a.newSub(argv, cx)
		a.nested(text, name+" <<", &sub)
		if sub.Class > ReadOnly {
			a.push(sub)
		}
	case in.file != nil:
		a.scriptFile(argv, cx, *in.file)
	default:
		if why := taintedPipe(in.upstream); why != "" {
			a.emit(argv, cx, Dangerous, why)
			return
		}
		if !shell {
			i := a.emit(argv, cx, RunsCode, "runs "+name+" code read from a pipe")
			if text, ok := a.echoed(in.upstream[len(in.upstream)-1]); ok {
				a.inlineCode(i, name, text)
			}
			return
		}
		text, ok := a.echoed(in.upstream[len(in.upstream)-1])
		if !ok {
			a.emit(argv, cx, Dangerous, name+" runs commands computed at run time from a pipe")
			return
		}
		sub := a.newSub(argv, cx)
		a.nested(text, "| "+name, &sub)
		if sub.Class > ReadOnly {
			a.push(sub)
		}
	}
}

// echoed returns the text a literal echo or printf statement prints.
func (a *analyzer) echoed(s *syntax.Stmt) (string, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(s.Redirs) > 0 {
		return "", false
	}
	words := a.words(c.Args)
	for _, w := range words {
		if !w.lit {
			return "", false
		}
	}
	switch words[0].val {
	case "echo":
		args := words[1:]
		for len(args) > 0 && (args[0].val == "-n" || args[0].val == "-E") {
			args = args[1:]
		}
		parts := make([]string, len(args))
		for i, w := range args {
			// Some shells' echo interprets backslash escapes; text with
			// them cannot be known for sure.
			if strings.Contains(w.val, `\`) || strings.HasPrefix(w.val, "-") {
				return "", false
			}
			parts[i] = w.val
		}
		return strings.Join(parts, " "), true
	case "printf":
		if len(words) < 2 || strings.HasPrefix(words[1].val, "-") {
			return "", false
		}
		rest := make([]string, 0, len(words)-2)
		for _, w := range words[2:] {
			rest = append(rest, w.val)
		}
		out, _, err := expand.Format(nil, words[1].val, rest)
		if err != nil {
			return "", false
		}
		return out, true
	}
	return "", false
}

var downloaders = set("curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lynx", "links", "w3m",
	"nc", "ncat", "netcat", "socat", "ftp", "tftp", "scp", "sftp", "ssh")

// taintedPipe explains why a pipe's content is unsafe to run: it comes from
// the network or is decoded from an opaque form.
func taintedPipe(up []*syntax.Stmt) string {
	why := ""
	for _, s := range up {
		syntax.Walk(s, func(n syntax.Node) bool {
			c, ok := n.(*syntax.CallExpr)
			if !ok || len(c.Args) == 0 || why != "" {
				return why == ""
			}
			name := path.Base(c.Args[0].Lit())
			switch {
			case downloaders[name]:
				why = "runs code downloaded from the network (" + name + " piped into an interpreter)"
			case decoder(name, c.Args[1:]):
				why = "runs code decoded at run time (" + name + " piped into an interpreter)"
			}
			return why == ""
		})
	}
	return why
}

func decoder(name string, args []*syntax.Word) bool {
	switch name {
	case "base64", "base32", "basenc":
		for _, w := range args {
			if v := w.Lit(); v == "--decode" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "dD")) {
				return true
			}
		}
	case "xxd":
		for _, w := range args {
			if v := w.Lit(); strings.HasPrefix(v, "-") && strings.Contains(v, "r") {
				return true
			}
		}
	case "openssl", "gunzip", "zcat", "bunzip2", "bzcat", "unxz", "xzcat", "uudecode", "rev", "tr", "zstdcat", "unzstd":
		return true
	case "gzip", "bzip2", "xz", "zstd":
		for _, w := range args {
			if v := w.Lit(); v == "--decompress" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "d")) {
				return true
			}
		}
	}
	return false
}

func evalCmd(a *analyzer, argv []arg, cx *callCtx) {
	parts := make([]string, 0, len(argv)-1)
	for _, x := range argv[1:] {
		if !x.lit || x.stdin || x.procSubst {
			a.emit(argv, cx, Dangerous, "eval runs a string computed at run time ("+x.val+")")
			return
		}
		parts = append(parts, x.val)
	}
	sub := a.newSub(argv, cx)
	a.nested(strings.Join(parts, " "), "eval", &sub)
	if sub.Class > ReadOnly {
		a.push(sub)
	}
}

func sourceCmd(a *analyzer, argv []arg, cx *callCtx) {
	if len(argv) < 2 {
		a.emit(argv, cx, RunsCode, "source without a file")
		return
	}
	f := argv[1]
	switch {
	case f.procSubst:
		a.emit(argv, cx, Dangerous, "runs a script produced by a command at run time ("+f.val+")")
	case !f.lit:
		a.emit(argv, cx, Dangerous, "runs a script whose path is computed at run time ("+f.val+")")
	default:
		a.emit(argv, cx, RunsCode, "runs the script "+f.val+" in this shell")
	}
}

func trapCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	if len(args) > 0 && args[0].lit && (args[0].val == "-p" || args[0].val == "-l" || args[0].val == "-P") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if len(args) > 0 && args[0].lit && args[0].val == "--" {
		args = args[1:]
	}
	if len(args) == 0 || (args[0].lit && (args[0].val == "" || args[0].val == "-")) || len(args) == 1 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	i := a.emit(argv, cx, ReadOnly)
	a.shellString(args[0], "trap", i)
}

func aliasCmd(a *analyzer, argv []arg, cx *callCtx) {
	i := a.emit(argv, cx, Mutating, "defines aliases")
	for _, x := range argv[1:] {
		if !x.lit {
			a.out.Commands[i].raise(Dangerous, "alias computed at run time ("+x.val+")")
			continue
		}
		if _, val, ok := strings.Cut(x.val, "="); ok {
			a.shellString(arg{val: val, lit: true}, "alias", i)
		}
	}
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_shells_0 = spec{stopAtOperand: true, valued: set("-m", "-W", "-X", "-r", "--require", "-I")}
)
