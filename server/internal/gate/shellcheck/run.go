package shellcheck

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// callCtx is what surrounds one simple command.
type callCtx struct {
	in  *feed
	via []string
	pre []classWhy // reasons raised by prefix assignments
}

func (cx *callCtx) wrap(via string) *callCtx {
	return &callCtx{in: cx.in, via: append(append([]string{}, cx.via...), via), pre: cx.pre}
}

// callExpr analyses a simple command and returns the index of the
// sub-command it produced (-1 for none), so that its redirections can be
// attached to it rather than to a command substitution in its arguments.
func (a *analyzer) callExpr(c *syntax.CallExpr, in *feed) int {
	mode := envCommand
	if len(c.Args) == 0 {
		mode = envPlain
	}
	pre := a.assigns(c.Assigns, mode)
	for _, w := range c.Args {
		a.subs(w)
	}
	start := len(a.out.Commands)
	if len(c.Args) == 0 {
		if len(pre) == 0 {
			return -1
		}
		sub := SubCommand{Literal: true}
		for _, as := range c.Assigns {
			sub.Args = append(sub.Args, a.text(as))
		}
		for _, r := range pre {
			sub.raise(r.class, r.why)
		}
		a.out.Commands = append(a.out.Commands, sub)
		return start
	}
	a.run(a.words(c.Args), &callCtx{in: in, pre: pre})
	if len(a.out.Commands) == start {
		return -1
	}
	return start
}

// newSub builds the sub-command for argv with the context's reasons.
func (a *analyzer) newSub(argv []arg, cx *callCtx) SubCommand {
	sub := SubCommand{Name: argv[0].val, Literal: argv[0].lit}
	if len(cx.via) > 0 {
		sub.Via = append([]string{}, cx.via...)
	}
	for _, x := range argv[1:] {
		sub.Args = append(sub.Args, x.val)
		if !x.lit && !x.stdin {
			sub.Literal = false
		}
		if x.lit && looksLikePath(x.val) {
			if pi := a.resolve(x); a.isCredential(pi) {
				sub.raise(Dangerous, "reads credentials in "+pi.abs)
			}
		}
	}
	for _, r := range cx.pre {
		sub.raise(r.class, r.why)
	}
	return sub
}

func looksLikePath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, ".") ||
		strings.Contains(s, "/") || strings.HasPrefix(s, "@")
}

func (a *analyzer) push(sub SubCommand) int {
	a.out.Commands = append(a.out.Commands, sub)
	return len(a.out.Commands) - 1
}

// emit records argv with the given class and reasons.
func (a *analyzer) emit(argv []arg, cx *callCtx, c Class, reasons ...string) int {
	sub := a.newSub(argv, cx)
	sub.raise(c, "")
	for _, r := range reasons {
		sub.raise(c, r)
	}
	i := a.push(sub)
	outs := a.optionScan(i, argv)
	a.checkReads(i, argv, outs)
	return i
}

// systemDirs hold the standard programs; /usr/bin/rm is rm, ./rm is not.
var systemDirs = set("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin")

// run classifies one command given as resolved words.
func (a *analyzer) run(argv []arg, cx *callCtx) {
	if len(argv) == 0 {
		return
	}
	name := argv[0]
	if !name.lit || name.stdin || name.procSubst {
		a.emit(argv, cx, Dangerous, "command name computed at run time ("+name.val+")")
		return
	}
	base := name.val
	if strings.Contains(base, "/") {
		dir, file := path.Split(base)
		if !systemDirs[strings.TrimSuffix(path.Clean(dir), "/")] {
			i := a.emit(argv, cx, RunsCode, "runs the program "+base)
			if pi := a.resolve(name); pi.kind == pkUnknown || pi.kind == pkStdin {
				a.out.Commands[i].raise(Dangerous, "program path "+pi.why)
			}
			return
		}
		base = file
	}
	if canon := canonicalName(base); canon != base {
		a.runCanonical(argv, canon, cx)
		return
	}
	if why := uploadTool(argv); why != "" {
		a.emit(argv, cx, Dangerous, why)
		return
	}
	if why := credentialTool(argv); why != "" {
		a.emit(argv, cx, Dangerous, why)
		return
	}
	if a.funcs[base] {
		a.emit(argv, cx, ReadOnly, "calls a function defined in this command")
		return
	}
	if h, ok := handlers[base]; ok {
		h(a, argv, cx)
		return
	}
	if readOnlyCmds[base] {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if why, ok := dangerousCmds[base]; ok {
		a.emit(argv, cx, Dangerous, why)
		return
	}
	if strings.HasPrefix(base, "mkfs") {
		a.emit(argv, cx, Dangerous, "creates a file system, erasing a disk")
		return
	}
	if execWrappers[base] {
		i := a.emit(argv, cx, RunsCode, base+" runs the program it is given")
		a.embedded(i, argv, cx)
		return
	}
	i := a.emit(argv, cx, Mutating, "not a known read-only command")
	a.embedded(i, argv, cx)
}

// execWrappers run the program named in their operands (strace -f ./x.sh,
// torsocks ./x): whatever that program is, it is code the analysis does
// not see, and a known program among the operands is analysed as well.
var execWrappers = set("strace", "ltrace", "valgrind", "torsocks", "torify", "proxychains", "proxychains4", "xvfb-run",
	"faketime", "catchsegv", "unbuffer", "firejail", "numactl", "chrt", "taskset", "unshare", "nsenter", "prlimit",
	"systemd-run", "cgexec", "rlwrap", "dbus-run-session", "caffeinate", "script", "parallel", "entr", "chronic",
	"fakeroot", "tsocks", "perf", "gdb", "lldb", "heaptrack", "hyperfine")

// embedded analyses commands an unknown program is likely to run: an
// argument that is itself a command line naming a known program
// (script -c 'nc ...'), or a known program and its arguments given as
// operands (strace -f nc ..., taskset 1 bash -i).
func (a *analyzer) embedded(i int, argv []arg, cx *callCtx) {
	known := func(v string) bool {
		b := path.Base(v)
		_, h := handlers[b]
		_, d := dangerousCmds[b]
		return h || d || netClients[b]
	}
	for k := 1; k < len(argv); k++ {
		x := argv[k]
		if !x.lit || x.val == "" || strings.HasPrefix(x.val, "-") {
			continue
		}
		if first, _, ok := strings.Cut(strings.TrimSpace(x.val), " "); ok && known(first) {
			for _, r := range a.commandValue(path.Base(argv[0].val), x.val) {
				a.out.Commands[i].raise(r.class, r.why)
			}
			continue
		}
		if known(x.val) {
			a.run(argv[k:], cx.wrap(path.Base(argv[0].val)))
			return
		}
	}
}

// handler classifies one command; argv[0] is the command.
type handler func(a *analyzer, argv []arg, cx *callCtx)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{}
	for name, h := range wrapperHandlers {
		handlers[name] = h
	}
	for name, h := range fsHandlers {
		handlers[name] = h
	}
	for name, h := range shellHandlers {
		handlers[name] = h
	}
	for name, h := range toolHandlers {
		handlers[name] = h
	}
	for name, h := range netHandlers {
		handlers[name] = h
	}
	for name, h := range interactiveHandlers {
		handlers[name] = h
	}
	for name, h := range dbClientHandlers {
		handlers[name] = h
	}
	for name := range projectRunners {
		if _, ok := handlers[name]; !ok {
			handlers[name] = projectRunnerCmd
		}
	}
}

// readOnlyCmds never write, whatever their options (output redirections
// are judged separately).
var readOnlyCmds = set(
	"ls", "dir", "vdir", "pwd", "echo", "true", "false", ":", "which", "whereis",
	"type", "whoami", "id", "groups", "uname", "arch", "nproc", "uptime", "free",
	"cal", "stat", "file", "du", "df", "ps", "pgrep", "diff", "cmp", "comm", "wc",
	"nl", "tac", "grep", "egrep", "fgrep", "zgrep", "ag", "ack", "cut", "tr", "jq",
	"column", "fold", "fmt", "paste", "join", "expand", "unexpand", "rev", "seq",
	"basename", "dirname", "realpath", "readlink", "sha1sum", "sha224sum",
	"sha256sum", "sha384sum", "sha512sum", "md5sum", "cksum", "b2sum", "sum",
	"base64", "base32", "od", "hexdump", "strings", "test", "[", "printenv",
	"locale", "tty", "sleep", "expr", "lsof", "lsblk", "getconf",
	"numfmt", "tsort", "factor", "yes", "nm", "objdump", "readelf", "size",
	"wait", "read", "exit", "return", "shift", "break", "continue", "set",
	"shopt", "unset", "umask", "ulimit", "hash", "times", "jobs", "dirs",
	"popd", "help", "history", "getopts", "caller", "local", "export",
	"declare", "typeset", "readonly", "let", "printf", "look", "whatis",
	"apropos", "host", "dig", "nslookup", "ping", "mapfile", "readarray",
	"zcat", "bzcat", "xzcat",
)

// dangerousCmds are dangerous whatever their arguments.
var dangerousCmds = map[string]string{
	"sudo": "runs a command with elevated privileges", "doas": "runs a command with elevated privileges",
	"su": "switches user", "pkexec": "runs a command with elevated privileges",
	"runuser": "switches user", "dd": "dd writes raw data to files or devices",
	"mke2fs": "creates a file system, erasing a disk", "mkswap": "formats a swap area",
	"fdisk": "edits disk partitions", "sfdisk": "edits disk partitions", "gdisk": "edits disk partitions",
	"parted": "edits disk partitions", "wipefs": "erases file system signatures",
	"shutdown": "shuts the machine down", "reboot": "reboots the machine",
	"halt": "halts the machine", "poweroff": "powers the machine off", "telinit": "changes the run level",
	"nc": "opens raw network connections that can send workspace data", "ncat": "opens raw network connections that can send workspace data",
	"netcat": "opens raw network connections that can send workspace data", "socat": "opens raw network connections that can send workspace data",
	"telnet": "opens raw network connections", "scp": "copies files over the network",
	"sftp": "transfers files over the network", "ftp": "transfers files over the network",
	"tftp": "transfers files over the network", "ssh": "runs commands on another machine and can send workspace data",
	"iptables": "changes the firewall", "ip6tables": "changes the firewall", "nft": "changes the firewall",
	"mount": "mounts file systems", "umount": "unmounts file systems", "insmod": "loads kernel modules",
	"rmmod": "unloads kernel modules", "modprobe": "loads kernel modules", "useradd": "changes user accounts",
	"userdel": "changes user accounts", "usermod": "changes user accounts", "passwd": "changes passwords",
	"chpasswd": "changes passwords", "visudo": "changes sudo rules", "chroot": "changes the root directory",
	"killall5": "signals every process", "shred": "destroys file contents irrecoverably",
	"launchctl": "changes system services", "httpd": "serves files over the network",
	"nmap": "probes other machines over the network and runs scripts",
	// Servers and builtins that connect a shell or a file to a socket.
	"telnetd": "serves a login shell over the network", "inetd": "serves programs over the network",
	"ztcp": "opens raw network connections (zsh/net/tcp)", "zsocket": "opens raw network connections (zsh/net/socket)",
	"smbclient": "transfers files over the network", "rcp": "copies files over the network",
	"lftp": "transfers files over the network", "curlftpfs": "mounts a remote file system",
}
