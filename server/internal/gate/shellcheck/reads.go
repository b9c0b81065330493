package shellcheck

import (
	"path"
	"strings"
)

// A shell read of a path outside the workspace roots asks, as read_file
// would refuse it; a read of a secret is dangerous. Any literal argument of
// a command is taken as a path it may read, except for commands that read
// no files and for the pattern or program operand of search tools.

// noReadCmds read no file named by their arguments.
var noReadCmds = set("echo", "printf", "basename", "dirname", "tr", "expr", "seq", "test", "[",
	"which", "whereis", "type", "command", "hash", "sleep", "true", "false", ":", "pwd", "date",
	"numfmt", "factor", "yes", "set", "unset", "export", "local", "declare", "typeset", "readonly",
	"read", "exit", "return", "getopts", "printenv", "help", "kill", "pkill", "killall", "id",
	"groups", "whoami", "uname", "arch", "nproc", "uptime", "free", "cal", "locale", "tty", "ping",
	"host", "dig", "nslookup", "cd", "pushd", "shift", "break", "continue", "wait", "let",
	"alias", "trap", "eval", "mapfile", "readarray", "umask", "ulimit", "times", "jobs", "dirs", "popd")

// patternCmds take a pattern or program as their first operand, unless
// one is given with -e (or a file of them with -f).
var patternCmds = set("grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ugrep", "sed", "awk",
	"gawk", "mawk", "nawk", "jq", "yq", "look", "perl", "python", "python3", "ruby", "node")

// recursiveCmds read whole directory trees named by their operands.
var recursiveCmds = set("rg", "ag", "ack", "ugrep", "tar", "zip", "rsync", "scp", "7z", "bsdtar")

// contentRecursive read file contents below directories given -r (or -a).
var contentRecursive = set("grep", "egrep", "fgrep", "zgrep", "cp", "diff", "zip", "scp", "rsync")

var harmlessDevices = set("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full", "/dev/tty",
	"/dev/stdin", "/dev/stdout", "/dev/stderr")

// checkReads raises sub-command i for the paths argv reads.
func (a *analyzer) checkReads(i int, argv []arg, skip map[int]bool) {
	name := path.Base(argv[0].val)
	if noReadCmds[name] {
		return
	}
	sub := func() *SubCommand { return &a.out.Commands[i] }
	recursive := recursiveCmds[name]
	pattern := patternCmds[name]
	patternSeen := false
	for k := 1; k < len(argv); k++ {
		x := argv[k]
		if !x.lit || x.stdin || x.procSubst || skip[k] {
			continue
		}
		v := x.val
		if v == "--" {
			continue
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			flag, val, hasVal := strings.Cut(v, "=")
			switch flag {
			case "-r", "-R", "--recursive", "--dereference-recursive", "-a", "--archive":
				recursive = recursive || contentRecursive[name]
			case "-d", "--directories":
				if (k+1 < len(argv) && argv[k+1].val == "recurse") || val == "recurse" {
					recursive = true
				}
			case "-e", "--regexp", "--expression":
				patternSeen = true
				if !hasVal {
					k++ // the pattern itself
				}
				continue
			case "-f", "--file":
				patternSeen = true
			}
			if len(flag) > 2 && flag[1] != '-' && strings.ContainsAny(flag[1:], "rRa") && contentRecursive[name] {
				recursive = true
			}
			if hasVal {
				a.readPath(sub(), arg{val: val, lit: true}, recursive)
			}
			continue
		}
		if pattern && !patternSeen {
			patternSeen = true
			continue
		}
		a.readPath(sub(), x, recursive)
	}
}

// readPath raises sub for reading the path x (a whole tree when
// recursive).
func (a *analyzer) readPath(sub *SubCommand, x arg, recursive bool) {
	v := x.val
	if i := strings.Index(v, "://"); i > 0 {
		if !strings.HasPrefix(v, "file://") {
			return // a URL: the network rules judge it
		}
		v = strings.TrimPrefix(v, "file://")
	}
	v = strings.TrimPrefix(v, "@") // @file: "read arguments or data from file"
	pi := a.resolve(arg{val: v, lit: true, found: x.found})
	if pi.kind == pkNet {
		sub.raise(Dangerous, "opens a network connection through "+pi.abs)
		return
	}
	if why := a.secretWhy(pi.abs); why != "" {
		sub.raise(Dangerous, "reads a secret: "+why)
		return
	}
	if recursive || x.found {
		start := strings.TrimSuffix(pi.abs, "/{}")
		if start == "" {
			start = "/"
		}
		if why := a.ancestorWhy(start); why != "" {
			sub.raise(Dangerous, "reads everything under "+start+", "+why)
			return
		}
	}
	if sub.Class > ReadsOutside {
		return
	}
	switch pi.kind {
	case pkOutside, pkSensitive:
		sub.raise(ReadsOutside, "reads "+pi.abs+", outside the workspace")
	case pkDevice:
		if !harmlessDevices[pi.abs] {
			sub.raise(ReadsOutside, "reads the device "+pi.abs)
		}
	case pkUnknown:
		sub.raise(ReadsOutside, "reads "+v+" in a directory the analysis cannot place ("+pi.why+")")
	}
}

// ancestorWhy says why a directory tree holds secrets ("" when it holds
// none the analysis knows of).
func (a *analyzer) ancestorWhy(dir string) string {
	if dir == "" {
		return ""
	}
	for _, ex := range a.secretExamples() {
		if _, ok := under(ex, dir); ok {
			return "which holds secrets such as " + ex
		}
	}
	return ""
}
