package shellcheck

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Environment variables given to a command (FOO=1 cmd, env FOO=1 cmd,
// export FOO=1) can make it run code: pagers, editors, diff and SSH
// helpers, shell start-up files, preload libraries, language start-up
// options, git configuration through the environment. Which variables a
// program honours cannot be listed, so the rule is an allow-list: only the
// inert variables below leave a command read-only.

// inertVars change only how output looks (locale, colours, width).
var inertVars = set("LANG", "LANGUAGE", "TZ", "NO_COLOR", "TERM", "COLORTERM", "COLUMNS", "LINES",
	"CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "GIT_TERMINAL_PROMPT")

func inertVar(name string) bool {
	return inertVars[name] || strings.HasPrefix(name, "LC_")
}

// commandVars hold a command line that programs run: the value is analysed
// as one.
var commandVars = set("PAGER", "MANPAGER", "GIT_PAGER", "SYSTEMD_PAGER", "BAT_PAGER", "DELTA_PAGER",
	"PSQL_PAGER", "MYSQL_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "SUDO_EDITOR",
	"FCEDIT", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_ASKPASS", "GIT_SSH_COMMAND", "GIT_SSH",
	"GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "LESSOPEN", "LESSCLOSE", "LESSEDIT", "PROMPT_COMMAND",
	"BROWSER", "RSYNC_RSH", "CVS_RSH", "RSH", "TAR_RSH", "DIFFTOOL", "MERGETOOL", "GIT_DIFF_TOOL")

// codeVars make programs load code or configuration from elsewhere; they
// are dangerous to set silently even without a command after them.
var codeVars = set("PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
	"DYLD_LIBRARY_PATH", "BASH_ENV", "ENV", "ZDOTDIR", "IFS", "SHELLOPTS", "BASHOPTS", "PS4", "HOME",
	"NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT",
	"PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
	"JDK_JAVA_OPTIONS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "GIT_DIR",
	"GIT_WORK_TREE", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_CONFIG_COUNT", "XDG_CONFIG_HOME",
	"MANOPT", "LESS", "LESSKEY", "LESSKEYIN", "VIMINIT", "EXINIT", "MYVIMRC", "GVIMINIT",
	"NPM_CONFIG_SCRIPT_SHELL", "NPM_CONFIG_NODE_OPTIONS", "GOFLAGS", "CARGO_BUILD_RUSTC_WRAPPER",
	"RUSTC_WRAPPER", "CC", "CXX", "MAKEFLAGS", "SHELL", "TMUX_TMPDIR", "SSH_AUTH_SOCK")

// envMode says how an assignment reaches programs.
type envMode int

const (
	// envPlain is a statement "X=1": it reaches programs only if X was
	// already exported, so only known code variables matter.
	envPlain envMode = iota
	// envCommand is "X=1 cmd", "env X=1 cmd" or "export X=1": every later
	// program sees it, so anything not inert counts.
	envCommand
)

// envVar classifies giving a program the variable name=val.
func (a *analyzer) envVar(name string, val arg, mode envMode) []classWhy {
	if inertVar(name) {
		return nil
	}
	switch {
	case strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") || name == "GIT_CONFIG_PARAMETERS":
		out := []classWhy{{RunsCode, "sets " + name + ": git configuration through the environment can make git run any command"}}
		if name == "GIT_CONFIG_PARAMETERS" || !val.lit {
			return append(out, classWhy{Dangerous, "sets " + name + " to a value the analysis cannot check (" + val.val + ")"})
		}
		if strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			out = append(out, a.commandValue(name, val.val)...)
		}
		return out
	case commandVars[name]:
		if !val.lit {
			return []classWhy{{Dangerous, "runs a command computed at run time (" + name + "=" + val.val + ")"}}
		}
		out := []classWhy{{RunsCode, "sets " + name + ", a command that programs run"}}
		return append(out, a.commandValue(name, val.val)...)
	case codeVars[name]:
		if !val.lit && name != "PATH" {
			return []classWhy{{Dangerous, "sets " + name + " to a value computed at run time (" + val.val + "); it decides what code programs load"}}
		}
		return []classWhy{{RunsCode, "sets " + name + ", which changes what code programs run or load"}}
	case mode == envCommand:
		return []classWhy{{RunsCode, "sets " + name + " for the command; programs can run code named in environment variables (only locale, colour and terminal variables are inert)"}}
	}
	return nil
}

// commandValue analyses the command line held by a variable or an option
// (PAGER='less -R', LESSOPEN='|lesspipe %s', core.pager=...). Its commands
// join the analysis; a value that does not parse is dangerous.
func (a *analyzer) commandValue(via, v string) []classWhy {
	v = strings.TrimSpace(v)
	// LESSOPEN and LESSCLOSE: "|cmd %s", "||cmd %s", "|-cmd %s". Git
	// aliases: "!cmd".
	v = strings.TrimLeft(v, "|!")
	v = strings.TrimPrefix(v, "-")
	v = strings.ReplaceAll(v, "%s", "file")
	if v == "" {
		return nil
	}
	sub := SubCommand{Name: via, Literal: true}
	a.nested(v, via, &sub)
	if sub.Class > ReadOnly {
		return []classWhy{{sub.Class, strings.Join(sub.Reasons, "; ")}}
	}
	return nil
}

// assignValue is an assignment's value as one word.
func (a *analyzer) assignValue(as *syntax.Assign) arg {
	switch {
	case as.Array != nil:
		return arg{val: a.text(as.Array)}
	case as.Value == nil:
		return arg{lit: true}
	}
	ws := a.word(as.Value)
	if len(ws) == 1 {
		return ws[0]
	}
	return arg{val: a.text(as.Value)}
}

// assigns analyses variable assignments and returns the reasons to raise
// on the command they belong to.
func (a *analyzer) assigns(as []*syntax.Assign, mode envMode) []classWhy {
	var out []classWhy
	for _, as := range as {
		if as.Value != nil {
			a.subs(as.Value)
		}
		if as.Array != nil {
			a.subs(as.Array)
		}
		if as.Index != nil {
			a.subs(as.Index)
		}
		if as.Name == nil || as.Naked {
			continue
		}
		out = append(out, a.envVar(as.Name.Value, a.assignValue(as), mode)...)
	}
	return out
}

func (a *analyzer) declClause(c *syntax.DeclClause) {
	mode := envPlain
	if c.Variant.Value == "export" {
		mode = envCommand
	}
	for _, as := range c.Args {
		// declare -x / typeset -x export too.
		if as.Naked && as.Name == nil && as.Value != nil {
			if w := as.Value.Lit(); strings.HasPrefix(w, "-") && strings.Contains(w, "x") {
				mode = envCommand
			}
		}
	}
	reasons := a.assigns(c.Args, mode)
	if len(reasons) == 0 {
		return
	}
	sub := SubCommand{Name: c.Variant.Value, Literal: true}
	for _, as := range c.Args {
		sub.Args = append(sub.Args, a.text(as))
	}
	for _, r := range reasons {
		sub.raise(r.class, r.why)
	}
	a.out.Commands = append(a.out.Commands, sub)
}
