package shellcheck

import (
	"strings"
)

// Wrappers run another command; the wrapped command is what matters, so it
// is analysed as if run directly (with the wrapper recorded in Via).
var wrapperHandlers = map[string]handler{
	"env":     envCmd,
	"nice":    simpleWrapper(spec_wrappers_0, 0),
	"timeout": simpleWrapper(spec_wrappers_1, 1),
	"nohup":   simpleWrapper(spec{stopAtOperand: true}, 0),
	"setsid":  simpleWrapper(spec{stopAtOperand: true}, 0),
	"stdbuf":  simpleWrapper(spec_wrappers_2, 0),
	"ionice":  ioniceCmd,
	"time":    timeCmd,
	"command": commandCmd,
	"builtin": simpleWrapper(spec{stopAtOperand: true}, 0),
	"exec":    simpleWrapper(spec_wrappers_3, 0),
	"sudo":    privWrapper(spec_wrappers_4),
	"doas":    privWrapper(spec_wrappers_5),
	"xargs":   xargsCmd,
	"watch":   watchCmd,
	"flock":   flockCmd,
}

// simpleWrapper runs the command after its options and skip leading
// operands (timeout's duration).
func simpleWrapper(sp spec, skip int) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		flags, ops := parseArgs(argv[1:], sp)
		_ = flags
		if len(ops) <= skip {
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.run(ops[skip:], cx.wrap(argv[0].val))
	}
}

func privWrapper(sp spec) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		_, ops := parseArgs(argv[1:], sp)
		a.emit(argv, cx, Dangerous, "runs a command with elevated privileges")
		if len(ops) > 0 {
			a.run(ops, cx.wrap(argv[0].val))
		}
	}
}

func envCmd(a *analyzer, argv []arg, cx *callCtx) {
	inner := cx.wrap("env")
	inner.pre = append([]classWhy{}, cx.pre...)
	args := argv[1:]
	var dir, split *arg
	i := 0
loop:
	for ; i < len(args); i++ {
		x := args[i]
		if !x.lit || x.stdin {
			break
		}
		v := x.val
		next := func() *arg {
			if i+1 < len(args) {
				i++
				return &args[i]
			}
			return &arg{lit: true}
		}
		switch {
		case v == "--":
			i++
			break loop
		case v == "-u" || v == "--unset":
			next()
		case v == "-C" || v == "--chdir":
			dir = next()
		case strings.HasPrefix(v, "--chdir="):
			dir = &arg{val: v[len("--chdir="):], lit: true}
		case strings.HasPrefix(v, "-C"):
			dir = &arg{val: v[2:], lit: true}
		case v == "-S" || v == "--split-string":
			split = next()
			i++
			break loop
		case strings.HasPrefix(v, "--split-string="):
			split = &arg{val: v[len("--split-string="):], lit: true}
			i++
			break loop
		case strings.HasPrefix(v, "-S"):
			split = &arg{val: v[2:], lit: true}
			i++
			break loop
		case strings.HasPrefix(v, "-"):
			// -i, -0, -v, --unset=NAME, -uNAME: no command here.
		case strings.Contains(v, "="):
			name, val, _ := strings.Cut(v, "=")
			inner.pre = append(inner.pre, a.envVar(name, arg{val: val, lit: true}, envCommand)...)
		default:
			break loop
		}
	}
	rest := args[min(i, len(args)):]
	runInner := func() {
		if split != nil {
			// env -S splits one string into words; analyse it, with the
			// words after it, as a command line.
			if !split.lit {
				a.emit(argv, cx, Dangerous, "command computed at run time ("+split.val+")")
				return
			}
			line := split.val
			for _, r := range rest {
				if !r.lit {
					a.emit(argv, cx, Dangerous, "command computed at run time ("+r.val+")")
					return
				}
				line += " " + r.val
			}
			sub := a.newSub(argv, inner)
			a.nested(line, "env -S", &sub)
			if sub.Class > ReadOnly {
				a.push(sub)
			}
			return
		}
		if len(rest) == 0 {
			a.emit(argv, cx, ReadOnly)
			return
		}
		a.run(rest, inner)
	}
	if dir != nil {
		a.withCwd(*dir, runInner)
		return
	}
	runInner()
}

// withCwd runs f with the working directory changed to dir.
func (a *analyzer) withCwd(dir arg, f func()) {
	cwd, known := a.cwd, a.cwdKnown
	a.cd(dir)
	f()
	a.cwd, a.cwdKnown = cwd, known
}

func ioniceCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_wrappers_6)
	if has(flags, "-p", "-P", "-u", "--pid", "--pgid", "--uid") || len(ops) == 0 {
		c := ReadOnly
		if len(flags) > 0 && has(flags, "-c", "-n", "--class", "--classdata") {
			c = Mutating
		}
		a.emit(argv, cx, c)
		return
	}
	a.run(ops, cx.wrap("ionice"))
}

func timeCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_wrappers_7)
	if outs := values(flags, "-o", "--output"); len(outs) > 0 {
		i := a.emit(argv, cx, Mutating)
		for _, o := range outs {
			a.checkWrite(i, arg{val: o.value, lit: o.lit})
		}
	}
	if len(ops) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	a.run(ops, cx.wrap("time"))
}

func commandCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec{stopAtOperand: true})
	if has(flags, "-v", "-V") || len(ops) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	a.run(ops, cx.wrap("command"))
}

func flockCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_wrappers_8)
	i := a.emit(argv, cx, Mutating, "takes a file lock")
	if len(ops) > 0 {
		a.checkWrite(i, ops[0])
	}
	for _, c := range values(flags, "-c", "--command") {
		a.shellString(arg{val: c.value, lit: c.lit}, "flock -c", i)
	}
	if len(ops) > 1 {
		a.run(ops[1:], cx.wrap("flock"))
	}
}

func watchCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_wrappers_9)
	if len(ops) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if has(flags, "-x", "--exec") {
		a.run(ops, cx.wrap("watch"))
		return
	}
	// watch passes its operands joined by spaces to sh -c.
	line := make([]string, 0, len(ops))
	for _, o := range ops {
		if !o.lit {
			a.emit(argv, cx, Dangerous, "command computed at run time ("+o.val+")")
			return
		}
		line = append(line, o.val)
	}
	sub := a.newSub(argv, cx)
	a.nested(strings.Join(line, " "), "watch", &sub)
	if sub.Class > ReadOnly {
		a.push(sub)
	}
}

// xargsCmd analyses the command xargs runs, with the words it reads from
// standard input as run-time paths.
func xargsCmd(a *analyzer, argv []arg, cx *callCtx) {
	sp := spec_wrappers_10
	flags, ops := parseArgs(argv[1:], sp)
	a.emit(argv[:1], cx, ReadOnly)
	a.out.Commands[len(a.out.Commands)-1].Args = argStrings(argv[1:])
	inner := ops
	if len(inner) == 0 {
		inner = []arg{{val: "echo", lit: true}}
	}
	in := arg{val: "{stdin}", stdin: true}
	repl := ""
	for _, f := range flags {
		switch {
		case f.name == "-I" || f.name == "--replace":
			repl = f.value
			if repl == "" {
				repl = "{}"
			}
		case f.name == "-i":
			repl = "{}"
		}
	}
	out := make([]arg, 0, len(inner)+1)
	out = append(out, inner[0])
	for _, x := range inner[1:] {
		if repl != "" && x.lit && strings.Contains(x.val, repl) {
			out = append(out, in)
			continue
		}
		out = append(out, x)
	}
	if repl == "" {
		out = append(out, in)
	}
	icx := cx.wrap("xargs")
	icx.in = nil
	a.run(out, icx)
}

func argStrings(args []arg) []string {
	out := make([]string, len(args))
	for i, x := range args {
		out[i] = x.val
	}
	return out
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_wrappers_0  = spec{valued: set("-n", "--adjustment"), stopAtOperand: true}
	spec_wrappers_1  = spec{valued: set("-k", "--kill-after", "-s", "--signal"), stopAtOperand: true}
	spec_wrappers_2  = spec{valued: set("-i", "-o", "-e", "--input", "--output", "--error"), stopAtOperand: true}
	spec_wrappers_3  = spec{valued: set("-a"), stopAtOperand: true}
	spec_wrappers_4  = spec{valued: set("-u", "-g", "-C", "-h", "-p", "-D", "-T", "-r", "-t", "-U", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--command-timeout"), stopAtOperand: true}
	spec_wrappers_5  = spec{valued: set("-u", "-C"), stopAtOperand: true}
	spec_wrappers_6  = spec{valued: set("-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"), stopAtOperand: true}
	spec_wrappers_7  = spec{valued: set("-f", "--format", "-o", "--output"), stopAtOperand: true}
	spec_wrappers_8  = spec{valued: set("-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command"), stopAtOperand: true}
	spec_wrappers_9  = spec{valued: set("-n", "--interval", "-q", "--equexit"), stopAtOperand: true}
	spec_wrappers_10 = spec{valued: set("-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var", "--max-lines", "--replace", "--eof"), stopAtOperand: true}
)
