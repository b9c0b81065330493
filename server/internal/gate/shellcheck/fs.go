package shellcheck

import (
	"regexp"
	"strings"
)

// fsHandlers are commands that read or write files named by their
// arguments; each write target is placed relative to the workspace.
var fsHandlers = map[string]handler{
	"cd":        cdCmd,
	"pushd":     cdCmd,
	"rm":        rmCmd,
	"rmdir":     writesOperands(spec{}, "removes"),
	"unlink":    writesOperands(spec{}, "removes"),
	"touch":     writesOperands(spec_fs_0, "touches"),
	"mkdir":     writesOperands(spec_fs_1, "creates"),
	"truncate":  writesOperands(spec_fs_2, "truncates"),
	"mv":        mvCmd,
	"cp":        copyCmd,
	"ln":        copyCmd,
	"install":   installCmd,
	"chmod":     chmodCmd,
	"chown":     chmodCmd,
	"chgrp":     chmodCmd,
	"tee":       teeCmd,
	"cat":       readCmd(spec{}),
	"head":      readCmd(spec_fs_4),
	"tail":      readCmd(spec_fs_5),
	"sort":      sortCmd,
	"uniq":      inOutCmd(spec_fs_6),
	"xxd":       inOutCmd(spec_fs_7),
	"tree":      outFlagCmd(spec_fs_8, "-o"),
	"iconv":     outFlagCmd(spec_fs_9, "-o", "--output"),
	"date":      dateCmd,
	"hostname":  hostnameCmd,
	"find":      findCmd,
	"fd":        fdCmd,
	"fdfind":    fdCmd,
	"rg":        rgCmd,
	"sed":       sedCmd,
	"yq":        yqCmd,
	"tar":       tarCmd,
	"unzip":     unzipCmd,
	"zip":       zipCmd,
	"gzip":      compressCmd,
	"gunzip":    compressCmd,
	"bzip2":     compressCmd,
	"xz":        compressCmd,
	"kill":      killCmd,
	"ps":        psCmd,
	"pkill":     mutatingCmd("signals processes by name"),
	"killall":   mutatingCmd("signals processes by name"),
	"awk":       awkCmd,
	"gawk":      awkCmd,
	"mawk":      awkCmd,
	"nawk":      awkCmd,
	"systemctl": systemctlCmd,
	"crontab":   crontabCmd,
	"init":      initCmd,
}

// awkCmd: an awk program that only prints is read-only (a read-only run
// cannot write in the sandbox anyway); > writes files, system() and pipes
// run commands, and gawk's /inet/ files open network connections.
func awkCmd(a *analyzer, argv []arg, cx *callCtx) {
	i := a.emit(argv, cx, ReadOnly)
	for k, x := range argv[1:] {
		if k > 0 && argv[k].lit && (argv[k].val == "-v" || argv[k].val == "-F") {
			continue
		}
		if x.lit && (strings.HasPrefix(x.val, "-f") || strings.HasPrefix(x.val, "--file") || strings.HasPrefix(x.val, "-E") || strings.HasPrefix(x.val, "--exec") ||
			strings.HasPrefix(x.val, "-i") || strings.HasPrefix(x.val, "--include") || strings.HasPrefix(x.val, "-l") || strings.HasPrefix(x.val, "--load")) {
			// The program is a file the analysis does not read (or gawk
			// -i inplace, which rewrites its input files).
			a.out.Commands[i].raise(Mutating, "awk "+x.val+" loads awk code from a file, which can write files")
			a.out.Commands[i].raise(RunsCode, "runs an awk program from a file, which can run commands")
			break
		}
		if x.lit && strings.HasPrefix(x.val, "-") {
			continue
		}
		if !x.lit {
			a.out.Commands[i].raise(Dangerous, "the awk program is computed at run time ("+x.val+"), and awk programs can run commands")
			break
		}
		// In awk a single | only ever pipes to or from a command (|| is
		// "or"), and system() runs one: print "id" | "sh" runs sh. A >
		// may be a comparison or a redirection: taken as a write.
		if strings.Contains(x.val, ">") {
			a.out.Commands[i].raise(Mutating, "the awk program may write files (print > file)")
		}
		if awkSystem.MatchString(x.val) || strings.Contains(strings.ReplaceAll(x.val, "||", ""), "|") {
			a.out.Commands[i].raise(RunsCode, "the awk program runs commands")
		}
		a.inlineCode(i, argv[0].val, x.val)
		break
	}
}

var awkSystem = regexp.MustCompile(`\bsystem\s*\(`)

func mutatingCmd(why string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) { a.emit(argv, cx, Mutating, why) }
}

// checkWrite raises sub-command i for writing to x.
func (a *analyzer) checkWrite(i int, x arg) pathInfo {
	pi := a.resolve(x)
	c, why := writeSeverity(pi)
	a.out.Commands[i].raise(c, why)
	return pi
}

func (a *analyzer) cd(dir arg) {
	if dir.lit && dir.val == "-" {
		a.cwdKnown = false
		return
	}
	pi := a.resolve(dir)
	if pi.kind == pkUnknown || pi.kind == pkStdin {
		a.cwdKnown = false
		return
	}
	a.cwd = pi.abs
}

func cdCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec{})
	a.emit(argv, cx, ReadOnly)
	switch {
	case len(ops) == 0 && argv[0].val == "cd":
		if a.ws.Home == "" {
			a.cwdKnown = false
			return
		}
		a.cwd = a.ws.Home
	case len(ops) == 0:
		a.cwdKnown = false
	default:
		pi := a.resolve(ops[0])
		a.cd(ops[0])
		if pi.kind == pkOutside || pi.kind == pkSensitive || pi.kind == pkDevice {
			// What follows reads relative paths there.
			a.out.Commands[len(a.out.Commands)-1].raise(ReadsOutside, "moves to "+pi.abs+", outside the workspace")
		}
	}
}

func rmCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_10)
	i := a.emit(argv, cx, Mutating)
	recursive := has(flags, "-r", "-R") || hasPrefix(flags, "--rec")
	if hasPrefix(flags, "--no-pres") {
		a.out.Commands[i].raise(Dangerous, "--no-preserve-root allows deleting /")
	}
	for _, op := range ops {
		pi := a.resolve(op)
		if op.found {
			a.deleteFound(i, op, pi)
			continue
		}
		if !recursive {
			c, why := writeSeverity(pi)
			a.out.Commands[i].raise(c, why)
			continue
		}
		switch pi.kind {
		case pkBuild, pkNull:
		case pkInside:
			a.out.Commands[i].raise(Dangerous, "recursively deletes "+op.val+", which is not a build output directory")
		case pkRoot:
			a.out.Commands[i].raise(Dangerous, "recursively deletes the workspace root")
		case pkStdin:
			a.out.Commands[i].raise(Dangerous, "recursively deletes paths read from standard input")
		default:
			a.out.Commands[i].raise(Dangerous, "recursively deletes "+op.val+": "+pi.why)
		}
	}
}

// deleteFound classifies deleting every file find or fd matches below a
// start directory: as a recursive delete, it is fine only in build output.
func (a *analyzer) deleteFound(i int, op arg, pi pathInfo) {
	switch pi.kind {
	case pkBuild:
		a.out.Commands[i].raise(Mutating, "")
	case pkInside, pkRoot:
		a.out.Commands[i].raise(Dangerous, "deletes files found below "+strings.TrimSuffix(op.val, "/{}")+", which is not a build output directory")
	default:
		a.out.Commands[i].raise(Dangerous, "deletes files found below "+strings.TrimSuffix(op.val, "/{}")+": "+pi.why)
	}
}

// writesOperands is for commands whose every operand is written; verb
// "removes" marks deleting commands.
func writesOperands(sp spec, verb string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		_, ops := parseArgs(argv[1:], sp)
		i := a.emit(argv, cx, Mutating)
		for _, op := range ops {
			if op.found && verb == "removes" {
				a.deleteFound(i, op, a.resolve(op))
				continue
			}
			a.checkWrite(i, op)
		}
	}
}

var cpSpec = spec{valued: set("-t", "-S", "--target-directory", "--suffix", "--backup", "--reflink", "--sparse", "--preserve", "--no-preserve")}

func mvCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], cpSpec)
	i := a.emit(argv, cx, Mutating)
	// mv removes its sources and writes its target: all are writes.
	for _, op := range ops {
		a.checkWrite(i, op)
	}
	for _, t := range values(flags, "-t", "--target-directory") {
		a.checkWrite(i, arg{val: t.value, lit: t.lit})
	}
}

func copyCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], cpSpec)
	i := a.emit(argv, cx, Mutating)
	targets := values(flags, "-t", "--target-directory")
	for _, t := range targets {
		a.checkWrite(i, arg{val: t.value, lit: t.lit})
	}
	switch {
	case len(targets) > 0:
	case len(ops) == 1:
		// ln TARGET makes a link in the current directory.
		a.checkWrite(i, arg{val: ".", lit: true})
	case len(ops) > 1:
		a.checkWrite(i, ops[len(ops)-1])
	}
}

func installCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_11)
	if has(flags, "-d", "--directory") {
		i := a.emit(argv, cx, Mutating)
		for _, op := range ops {
			a.checkWrite(i, op)
		}
		return
	}
	copyCmd(a, argv, cx)
}

func chmodCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_12)
	i := a.emit(argv, cx, Mutating)
	if has(flags, "-R") || hasPrefix(flags, "--recursive") {
		a.out.Commands[i].raise(Dangerous, "changes permissions or owners recursively")
	}
	if !has(flags, "--reference") && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, op := range ops {
		a.checkWrite(i, op)
	}
}

func teeCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_13)
	i := a.emit(argv, cx, ReadOnly)
	for _, op := range ops {
		pi := a.checkWrite(i, op)
		a.writeTargetHint(pi, op.val, authoredFeed(cx.in), has(flags, "-a", "--append"), "tee")
	}
}

// readCmd is for pagers and printers of files: read-only, with a hint to use
// read_file for source files in the workspace.
func readCmd(sp spec) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		_, ops := parseArgs(argv[1:], sp)
		a.emit(argv, cx, ReadOnly)
		a.readHint(argv[0].val, ops)
		if cx.in != nil && cx.in.file != nil {
			a.readHint(argv[0].val, []arg{*cx.in.file})
		}
	}
}

func (a *analyzer) readHint(cmd string, files []arg) {
	for _, f := range files {
		if !f.lit || f.stdin || !isSourceFile(f.val) {
			continue
		}
		switch a.resolve(f).kind {
		case pkInside, pkBuild:
			a.hint(ToolReadFile, "Use the read_file tool to read "+f.val+" instead of `"+cmd+"`.")
			return
		}
	}
}

func sortCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], spec_fs_15)
	i := a.emit(argv, cx, ReadOnly)
	for _, f := range values(flags, "-o", "--output") {
		a.checkWrite(i, arg{val: f.value, lit: f.lit})
	}
	if has(flags, "--compress-program") {
		a.out.Commands[i].raise(Mutating, "runs a compression program")
	}
}

// inOutCmd is for "cmd [INPUT [OUTPUT]]" tools such as uniq and xxd.
func inOutCmd(sp spec) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		_, ops := parseArgs(argv[1:], sp)
		i := a.emit(argv, cx, ReadOnly)
		if len(ops) > 1 {
			a.checkWrite(i, ops[1])
		}
	}
}

func outFlagCmd(sp spec, outs ...string) handler {
	return func(a *analyzer, argv []arg, cx *callCtx) {
		flags, _ := parseArgs(argv[1:], sp)
		i := a.emit(argv, cx, ReadOnly)
		for _, f := range values(flags, outs...) {
			a.checkWrite(i, arg{val: f.value, lit: f.lit})
		}
	}
}

func dateCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_16)
	for _, op := range ops {
		if !op.lit || !strings.HasPrefix(op.val, "+") {
			a.emit(argv, cx, Mutating, "sets the system clock")
			return
		}
	}
	if has(flags, "-s", "--set") {
		a.emit(argv, cx, Mutating, "sets the system clock")
		return
	}
	a.emit(argv, cx, ReadOnly)
}

func hostnameCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_17)
	if len(ops) > 0 || has(flags, "-F", "--file") {
		a.emit(argv, cx, Mutating, "sets the host name")
		return
	}
	a.emit(argv, cx, ReadOnly)
}

// findCmd analyses find's actions: -exec and friends run commands on what
// it finds, -delete deletes it, -fprint writes files.
func findCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	i := 0
	for i < len(args) && args[i].lit && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P" || strings.HasPrefix(args[i].val, "-O")) {
		i++
	}
	if i < len(args) && args[i].lit && args[i].val == "-D" {
		i += 2
	}
	var starts []arg
	for ; i < len(args); i++ {
		v := args[i].val
		if args[i].lit && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ")" || v == ",") {
			break
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []arg{{val: ".", lit: true}}
	}
	self := a.emit(argv, cx, ReadOnly)
	type execCmd struct {
		argv []arg
		dir  bool
	}
	var execs []execCmd
	for ; i < len(args); i++ {
		x := args[i]
		if !x.lit {
			continue
		}
		switch x.val {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && !(args[j].lit && (args[j].val == ";" || args[j].val == "+")) {
				j++
			}
			if j > i+1 {
				execs = append(execs, execCmd{argv: args[i+1 : j], dir: strings.HasSuffix(x.val, "dir")})
			}
			i = j
		case "-delete":
			for _, s := range starts {
				switch pi := a.resolve(s); pi.kind {
				case pkBuild:
					a.out.Commands[self].raise(Mutating, "find -delete deletes files in build output")
				case pkInside, pkRoot:
					a.out.Commands[self].raise(Dangerous, "find -delete recursively deletes files under "+s.val+", which is not a build output directory")
				default:
					a.out.Commands[self].raise(Dangerous, "find -delete deletes files under "+s.val+": "+pi.why)
				}
			}
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				a.checkWrite(self, args[i+1])
				i++
			}
		}
	}
	for _, e := range execs {
		for _, s := range starts {
			inner := make([]arg, 0, len(e.argv))
			for k, x := range e.argv {
				if k > 0 && x.lit && strings.Contains(x.val, "{}") {
					x = arg{val: strings.ReplaceAll(x.val, "{}", strings.TrimSuffix(s.val, "/")+"/{}"), lit: s.lit, found: true}
				}
				inner = append(inner, x)
			}
			icx := cx.wrap("find")
			icx.in = nil
			if e.dir {
				a.withCwd(s, func() { a.run(inner, icx) })
			} else {
				a.run(inner, icx)
			}
		}
	}
}

func fdCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	self := a.emit(argv, cx, ReadOnly)
	_ = self
	for i, x := range args {
		if x.lit && (x.val == "-x" || x.val == "--exec" || x.val == "-X" || x.val == "--exec-batch") {
			_, ops := parseArgs(args[:i], spec_fs_18)
			root := arg{val: ".", lit: true}
			if len(ops) > 1 {
				root = ops[1]
			}
			inner := []arg{}
			placed := false
			for k, y := range args[i+1:] {
				if y.lit && y.val == ";" {
					break
				}
				if k > 0 && y.lit && strings.Contains(y.val, "{") && strings.Contains(y.val, "}") {
					y = arg{val: strings.TrimSuffix(root.val, "/") + "/{}", lit: root.lit, found: true}
					placed = true
				}
				inner = append(inner, y)
			}
			if len(inner) == 0 {
				return
			}
			if !placed {
				inner = append(inner, arg{val: strings.TrimSuffix(root.val, "/") + "/{}", lit: root.lit, found: true})
			}
			icx := cx.wrap("fd")
			icx.in = nil
			a.run(inner, icx)
			return
		}
	}
}

func rgCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], spec_fs_19)
	if has(flags, "--pre") {
		a.emit(argv, cx, Mutating, "rg --pre runs a preprocessor command on every file")
		return
	}
	a.emit(argv, cx, ReadOnly)
}

func yqCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_20)
	if has(flags, "-i", "--inplace") {
		i := a.emit(argv, cx, Mutating, "edits files in place")
		for _, op := range ops[min(1, len(ops)):] {
			a.checkWrite(i, op)
		}
		return
	}
	a.emit(argv, cx, ReadOnly)
}

func tarCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	list := false
	if len(args) > 0 && args[0].lit && !strings.HasPrefix(args[0].val, "-") {
		// Old-style bundled letters: "tar xzf archive".
		list = strings.Contains(args[0].val, "t")
		args = append([]arg{{val: "-" + args[0].val, lit: true}}, args[1:]...)
	}
	flags, _ := parseArgs(args, spec_fs_21)
	if has(flags, "--to-command", "--checkpoint-action", "--rsh-command", "--info-script", "--new-volume-script", "--use-compress-program", "-I") {
		a.emit(argv, cx, Dangerous, "tar option runs an arbitrary command")
		return
	}
	if (list || has(flags, "-t", "--list")) && !has(flags, "-x", "-c", "-r", "-u", "--extract", "--create", "--append", "--update", "--delete") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	i := a.emit(argv, cx, Mutating)
	dirs := values(flags, "-C", "--directory")
	for _, d := range dirs {
		a.checkWrite(i, arg{val: d.value, lit: d.lit})
	}
	creating := has(flags, "-c", "-r", "-u", "--create", "--append", "--update") || (len(argv) > 1 && argv[1].lit && !strings.HasPrefix(argv[1].val, "-") && strings.ContainsAny(argv[1].val, "cru"))
	if creating {
		for _, f := range values(flags, "-f", "--file") {
			if f.value != "-" {
				a.checkWrite(i, arg{val: f.value, lit: f.lit})
			}
		}
	} else if len(dirs) == 0 {
		a.checkWrite(i, arg{val: ".", lit: true})
	}
}

func unzipCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], spec_fs_22)
	if has(flags, "-l", "-t", "-v", "-Z", "-z") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	i := a.emit(argv, cx, Mutating)
	dirs := values(flags, "-d")
	for _, d := range dirs {
		a.checkWrite(i, arg{val: d.value, lit: d.lit})
	}
	if len(dirs) == 0 {
		a.checkWrite(i, arg{val: ".", lit: true})
	}
}

func zipCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec_fs_23)
	i := a.emit(argv, cx, Mutating)
	for k := 1; k+1 < len(argv); k++ {
		if !argv[k].lit || argv[k].val != "-TT" {
			continue
		}
		// zip -T -TT CMD tests the archive by running CMD.
		f := argv[k+1]
		a.out.Commands[i].raise(RunsCode, "zip -TT runs a program")
		if !f.lit {
			a.out.Commands[i].raise(Dangerous, "zip -TT runs a program computed at run time")
			continue
		}
		for _, r := range a.commandValue("zip -TT", f.val) {
			a.out.Commands[i].raise(r.class, r.why)
		}
	}
	if len(ops) > 0 {
		a.checkWrite(i, ops[0])
	}
}

func compressCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_24)
	if has(flags, "-c", "--stdout", "-l", "--list", "-t", "--test") || len(ops) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	// Without -c these replace each file by its (de)compressed version.
	i := a.emit(argv, cx, Mutating)
	for _, op := range ops {
		a.checkWrite(i, op)
	}
}

// psCmd: BSD-style "e" (ps e, ps auxe, ps eww) prints every process's
// environment, where the sidecar's own secrets live.
func psCmd(a *analyzer, argv []arg, cx *callCtx) {
	for _, x := range argv[1:] {
		if x.lit && !strings.HasPrefix(x.val, "-") && strings.Contains(x.val, "e") && !strings.ContainsAny(x.val, "=,") {
			a.emit(argv, cx, Dangerous, "ps "+x.val+" prints other processes' environments, where secrets such as API keys live")
			return
		}
		if x.lit && (strings.Contains(x.val, "environ") || x.val == "-E") {
			a.emit(argv, cx, Dangerous, "ps "+x.val+" prints other processes' environments")
			return
		}
	}
	a.emit(argv, cx, ReadOnly)
}

func killCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	if len(args) > 0 && args[0].lit && (args[0].val == "-l" || args[0].val == "-L" || args[0].val == "--list") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if len(args) > 0 && args[0].lit && (args[0].val == "-s" || args[0].val == "-n") {
		args = args[min(2, len(args)):]
	} else if len(args) > 0 && args[0].lit && strings.HasPrefix(args[0].val, "-") && args[0].val != "--" {
		args = args[1:]
	}
	for _, x := range args {
		if x.lit && (x.val == "-1" || x.val == "-0") {
			a.emit(argv, cx, Dangerous, "signals every process the user owns")
			return
		}
	}
	a.emit(argv, cx, Mutating, "signals processes")
}

var systemctlReadOnly = set("status", "show", "cat", "list-units", "list-unit-files", "list-sockets", "list-timers", "list-jobs", "list-dependencies", "is-active", "is-enabled", "is-failed", "is-system-running", "help", "get-default", "show-environment")

var systemctlPower = set("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "rescue", "emergency", "isolate", "default", "soft-reboot")

func systemctlCmd(a *analyzer, argv []arg, cx *callCtx) {
	_, ops := parseArgs(argv[1:], spec_fs_25)
	switch {
	case len(ops) == 0:
		a.emit(argv, cx, ReadOnly)
	case !ops[0].lit:
		a.emit(argv, cx, Dangerous, "service action computed at run time")
	case systemctlReadOnly[ops[0].val]:
		a.emit(argv, cx, ReadOnly)
	case systemctlPower[ops[0].val]:
		a.emit(argv, cx, Dangerous, "changes the machine's power state or run level")
	default:
		a.emit(argv, cx, Mutating, "changes system services")
	}
}

func crontabCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_fs_26)
	if has(flags, "-l") && len(ops) == 0 && !has(flags, "-r", "-e", "-i") {
		a.emit(argv, cx, ReadOnly)
		return
	}
	a.emit(argv, cx, Dangerous, "installs scheduled commands that outlive the session")
}

func initCmd(a *analyzer, argv []arg, cx *callCtx) {
	a.emit(argv, cx, Dangerous, "changes the run level")
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_fs_0  = spec{valued: set("-r", "-d", "-t", "--reference", "--date")}
	spec_fs_1  = spec{valued: set("-m", "--mode", "--context")}
	spec_fs_2  = spec{valued: set("-s", "-r", "--size", "--reference")}
	spec_fs_3  = spec{valued: set("-n", "--lines")}
	spec_fs_4  = spec{valued: set("-n", "-c", "--lines", "--bytes")}
	spec_fs_5  = spec{valued: set("-n", "-c", "-s", "--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats")}
	spec_fs_6  = spec{valued: set("-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated")}
	spec_fs_7  = spec{valued: set("-c", "-g", "-l", "-s", "-o", "-n", "-cols", "-len", "-seek", "-groupsize")}
	spec_fs_8  = spec{valued: set("-L", "-P", "-I", "-o", "-H", "-T", "--filelimit", "--charset", "--sort", "--timefmt")}
	spec_fs_9  = spec{valued: set("-f", "-t", "-o", "--from-code", "--to-code", "--output")}
	spec_fs_10 = spec{valued: set("--interactive")}
	spec_fs_11 = spec{valued: set("-m", "-o", "-g", "-t", "-S", "--mode", "--owner", "--group", "--target-directory", "--suffix")}
	spec_fs_12 = spec{valued: set("--reference", "--from")}
	spec_fs_13 = spec{valued: set("--output-error")}
	spec_fs_14 = spec{valued: set("-o", "-O", "-b", "-h", "-j", "-k", "-p", "-P", "-t", "-T", "-x", "-y", "-z", "--log-file", "--LOG-FILE")}
	spec_fs_15 = spec{valued: set("-k", "-t", "-S", "-T", "-o", "--key", "--field-separator", "--buffer-size", "--temporary-directory", "--output", "--parallel", "--batch-size", "--files0-from", "--compress-program", "--sort", "--random-source")}
	spec_fs_16 = spec{valued: set("-d", "--date", "-f", "--file", "-r", "--reference", "-s", "--set")}
	spec_fs_17 = spec{valued: set("-F", "--file")}
	spec_fs_18 = spec{valued: set("-e", "-t", "-E", "-d", "-j", "-S", "-c", "--extension", "--type", "--exclude", "--max-depth", "--min-depth", "--threads", "--size", "--color", "--changed-within", "--changed-before", "--owner", "--base-directory", "--search-path")}
	spec_fs_19 = spec{valued: set("-e", "-f", "-g", "-t", "-T", "-A", "-B", "-C", "-m", "-j", "-M", "-r", "-E", "--pre", "--pre-glob", "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--after-context", "--before-context", "--context", "--max-count", "--threads", "--max-columns", "--replace", "--encoding", "--type-add", "--max-depth", "--sort", "--sortr", "--color", "--colors", "--ignore-file", "--max-filesize", "--path-separator", "--context-separator", "--field-match-separator", "--field-context-separator", "--engine", "--dfa-size-limit", "--regex-size-limit")}
	spec_fs_20 = spec{valued: set("-o", "-p", "-I", "--output-format", "--input-format", "--indent", "--expression", "--from-file", "--split-exp")}
	spec_fs_21 = spec{valued: set("-f", "-C", "-T", "-X", "-b", "-H", "-I", "-K", "-L", "-N", "-V", "--file", "--directory", "--files-from", "--exclude-from", "--format", "--use-compress-program", "--transform", "--exclude", "--owner", "--group", "--mode", "--newer", "--to-command", "--checkpoint-action", "--rsh-command", "--info-script", "--new-volume-script")}
	spec_fs_22 = spec{valued: set("-d", "-x")}
	spec_fs_23 = spec{valued: set("-b", "-n", "-t", "-tt", "-x", "-i", "-O", "--out")}
	spec_fs_24 = spec{valued: set("-S", "--suffix")}
	spec_fs_25 = spec{valued: set("-t", "-p", "-H", "-M", "-n", "-o", "-s", "--type", "--property", "--host", "--machine", "--lines", "--output", "--signal", "--state", "--root")}
	spec_fs_26 = spec{valued: set("-u")}
)
