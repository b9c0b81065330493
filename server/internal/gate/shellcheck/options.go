package shellcheck

import (
	"path"
	"strings"
)

// Options that name an output file or a program to run take a command out
// of read-only whatever the tool: --junit-xml PATH writes PATH (outside the
// workspace, a dangerous write), --pager CMD and --exec CMD run CMD, which
// is analysed as a command. Tools whose handlers understand their own
// options are left to them.

// outputOptions name a file the command writes.
var outputOptions = set("output", "output-file", "outfile", "out-file", "output-document", "log-file", "logfile",
	"junit-xml", "junitxml", "xunit-xml", "xunit-file", "html-report", "report-file", "reportfile", "output-dir",
	"outdir", "out-dir", "results-file", "result-file", "trace-file", "profile-file", "dump-file", "save-to",
	"junit-output", "junit-report", "json-report-file", "coverage-file", "write-file", "outputfile")

// programOptions name a command the tool runs.
var programOptions = set("exec", "exec-batch", "pager", "editor", "pre", "command", "shell", "rsh", "browser",
	"preprocessor", "compress-program", "use-compress-program", "to-command", "checkpoint-action", "info-script",
	"new-volume-script", "rsync-path", "proxy-command", "askpass", "diff-cmd", "diff-program", "sh-exec",
	"lua-exec", "interpreter", "script-shell", "shell-cmd", "pre-hook", "post-hook", "hook", "eval",
	"exec-command", "run-command", "filter-command", "textconv", "merge-program", "viewer", "open-with", "script",
	"on-download-complete", "on-download-start", "on-download-error", "on-download-stop", "on-download-pause",
	"on-bt-download-complete", "unzip-command", "ssh-command", "postprocessor", "pre-process", "wrapper",
	// split --filter, pandoc --filter, difftool-like --extcmd.
	"filter", "extcmd")

// optionsOwnHandled parse these options themselves (or treat them as
// formats: df --output=source is a column list).
var optionsOwnHandled = set("find", "fd", "fdfind", "git", "go", "man", "xargs", "watch", "env", "flock", "timeout",
	"nice", "nohup", "setsid", "stdbuf", "ionice", "time", "command", "builtin", "exec", "sudo", "doas", "docker",
	"podman", "kubectl", "df", "ps", "lsblk", "findmnt", "curl", "wget", "tar", "bash", "sh", "zsh", "dash", "ksh",
	"ash", "mksh", "fish", "eval", "journalctl", "systemctl", "less", "more", "most", "pg")

// netClients send their arguments over the network: an argument computed
// at run time may carry local data ($(cat ~/.ssh/id_rsa).evil.example).
var netClients = set("curl", "wget", "whois", "finger", "dig", "host", "nslookup", "ping", "ping6", "traceroute",
	"http", "https", "xh", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp", "ssh", "scp", "sftp",
	"aria2c", "lynx", "links", "w3m", "drill", "kdig", "mtr", "tracepath", "arping", "smbclient")

// optionScan raises sub-command i for the options in argv that write or
// run programs, and returns the argument indexes that are output files (so
// that they are not also taken as reads).
func (a *analyzer) optionScan(i int, argv []arg) map[int]bool {
	name := path.Base(argv[0].val)
	if netClients[name] {
		for _, x := range argv[1:] {
			if !x.lit && !x.stdin {
				a.out.Commands[i].raise(Dangerous, "sends data computed at run time over the network ("+x.val+")")
				break
			}
		}
	}
	if optionsOwnHandled[name] {
		return nil
	}
	var outs map[int]bool
	for k := 1; k < len(argv); k++ {
		x := argv[k]
		if !strings.HasPrefix(x.val, "--") {
			continue
		}
		opt, val, hasEq := strings.Cut(strings.TrimPrefix(x.val, "--"), "=")
		opt = strings.ToLower(opt)
		isOut, isProg := outputOptions[opt], programOptions[opt]
		if !isOut && !isProg {
			continue
		}
		v := arg{val: val, lit: x.lit}
		switch {
		case hasEq:
			if !x.lit {
				// --output=$(...): the source text holds the option name.
				v = arg{val: val}
			}
		case k+1 < len(argv) && !strings.HasPrefix(argv[k+1].val, "-"):
			v = argv[k+1]
			if outs == nil {
				outs = map[int]bool{}
			}
			outs[k+1] = true
		default:
			continue // a flag without a value (--pager to turn paging on)
		}
		if isOut {
			a.out.Commands[i].raise(Mutating, name+" --"+opt+" writes "+v.val)
			a.checkWrite(i, v)
			continue
		}
		a.out.Commands[i].raise(RunsCode, name+" --"+opt+" runs a program")
		if !v.lit {
			a.out.Commands[i].raise(Dangerous, name+" --"+opt+" runs a program computed at run time ("+v.val+")")
			continue
		}
		for _, r := range a.commandValue(name+" --"+opt, v.val) {
			a.out.Commands[i].raise(r.class, r.why)
		}
	}
	return outs
}
