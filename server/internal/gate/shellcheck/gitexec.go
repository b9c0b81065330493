package shellcheck

import "strings"

// Git subcommands that run a command they are given: rebase --exec runs it
// after each commit, bisect run and submodule foreach run it, difftool and
// mergetool -x/--extcmd run it as the diff tool, and fetch, clone, pull,
// ls-remote and push run the named upload or receive pack program. The
// command is analysed like any other, so rebase --exec 'nc ... -e sh' is
// dangerous, not merely a rebase. Sending mail and serving the repository
// reach the network with the workspace's data.

// gitExecOptions are each subcommand's options whose value is a command.
var gitExecOptions = map[string][]string{
	"rebase":    {"--exec", "-x"},
	"difftool":  {"--extcmd", "-x"},
	"mergetool": {"--extcmd", "-x"},
	"fetch":     {"--upload-pack"},
	"pull":      {"--upload-pack"},
	"ls-remote": {"--upload-pack"},
	"clone":     {"--upload-pack", "-u"},
	"archive":   {"--exec"},
	"push":      {"--receive-pack", "--exec"},
}

// gitRunsRest are subcommands whose operands, after a leading word, are a
// command line: git bisect run CMD..., git submodule foreach CMD...
var gitRunsRest = map[string]string{"bisect": "run", "submodule": "foreach"}

func (a *analyzer) gitRuns(sub string, args []arg) []classWhy {
	switch sub {
	case "send-email", "imap-send":
		return []classWhy{{Dangerous, "git " + sub + " sends the repository's patches over the network"}}
	case "daemon":
		return []classWhy{{Dangerous, "git daemon serves the repository over the network"}}
	}
	via := "git " + sub
	var out []classWhy
	runs := func(how string, v arg) {
		out = append(out, classWhy{RunsCode, via + " " + how + " runs a command"})
		if !v.lit {
			out = append(out, classWhy{Dangerous, via + " " + how + " runs a command computed at run time (" + v.val + ")"})
			return
		}
		out = append(out, a.commandValue(via+" "+how, v.val)...)
	}
	if word, ok := gitRunsRest[sub]; ok {
		for k, x := range args {
			if x.lit && strings.HasPrefix(x.val, "-") {
				continue
			}
			if x.lit && x.val == word && k+1 < len(args) {
				runs(word, joinArgs(args[k+1:]))
			}
			break
		}
	}
	opts := gitExecOptions[sub]
	for k, x := range args {
		if !x.lit {
			continue
		}
		for _, o := range opts {
			switch {
			case x.val == o && k+1 < len(args):
				runs(o, args[k+1])
			case strings.HasPrefix(x.val, o+"=") && strings.HasPrefix(o, "--"):
				runs(o, arg{val: x.val[len(o)+1:], lit: true})
			case len(o) == 2 && strings.HasPrefix(x.val, o) && len(x.val) > 2:
				runs(o, arg{val: x.val[2:], lit: true})
			}
		}
	}
	return out
}

// joinArgs is words run as one command line: literal when all of them are.
func joinArgs(args []arg) arg {
	out := arg{lit: true}
	vals := make([]string, 0, len(args))
	for _, x := range args {
		vals = append(vals, x.val)
		out.lit = out.lit && x.lit
	}
	out.val = strings.Join(vals, " ")
	return out
}
