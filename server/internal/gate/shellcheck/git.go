package shellcheck

import "strings"

// gitReadOnly are subcommands that only read the repository (given no
// option that writes, checked in gitCmd).
var gitReadOnly = set("status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "describe",
	"ls-tree", "cat-file", "shortlog", "rev-list", "merge-base", "name-rev", "show-ref",
	"for-each-ref", "whatchanged", "count-objects", "version", "help", "grep", "ls-remote",
	"check-ignore", "check-attr", "var", "cherry", "show-branch", "range-diff", "annotate",
	"diff-tree", "diff-files", "diff-index", "verify-commit", "verify-tag", "fsck")

// Programs git takes from its configuration (pager, fsmonitor, diff
// drivers) run in the read-only, offline sandbox and are not guessed at
// (doc.go); what the command line names is analysed.

func gitCmd(a *analyzer, argv []arg, cx *callCtx) {
	args := argv[1:]
	var dir *arg
	unsafeGlobal := ""
	var trees []arg // --git-dir and --work-tree: where a writing command writes
	var configs []classWhy
	// Global options come before the subcommand.
	for len(args) > 0 && args[0].lit && strings.HasPrefix(args[0].val, "-") {
		v := args[0].val
		switch {
		case v == "-C":
			if len(args) > 1 {
				d := args[1]
				dir = &d
				args = args[1:]
			}
		case v == "-c" || v == "--config-env" || strings.HasPrefix(v, "--config-env="):
			var val arg
			switch {
			case strings.HasPrefix(v, "--config-env="):
				val = arg{val: v[len("--config-env="):], lit: true}
			case len(args) > 1:
				val = args[1]
				args = args[1:]
			}
			configs = append(configs, a.gitConfig(v, val)...)
		case strings.HasPrefix(v, "--exec-path="):
			unsafeGlobal = "git " + v + " runs git's programs from another directory"
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree="):
			_, d, _ := strings.Cut(v, "=")
			trees = append(trees, arg{val: d, lit: true})
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace":
			if len(args) > 1 {
				if v != "--namespace" {
					trees = append(trees, args[1])
				}
				args = args[1:]
			}
		}
		args = args[1:]
	}
	run := func() {
		start := len(a.out.Commands)
		gitSub(a, argv, args, cx, unsafeGlobal, trees)
		for k := start; k < len(a.out.Commands); k++ {
			if a.out.Commands[k].Name == argv[0].val {
				for _, r := range configs {
					a.out.Commands[k].raise(r.class, r.why)
				}
				break
			}
		}
	}
	if dir != nil {
		a.withCwd(*dir, run)
		return
	}
	run()
}

func gitSub(a *analyzer, argv, args []arg, cx *callCtx, unsafeGlobal string, trees []arg) {
	if len(args) == 0 {
		a.emit(argv, cx, ReadOnly)
		return
	}
	if !args[0].lit {
		a.emit(argv, cx, Dangerous, "git subcommand computed at run time ("+args[0].val+")")
		return
	}
	sub := args[0].val
	flags, ops := parseArgs(args[1:], spec_git_0)
	class, why := gitClass(sub, flags, ops)
	if sub == "instaweb" || sub == "web--browse" {
		class, why = RunsCode, "git "+sub+" starts a web server or a browser"
	}
	i := a.emit(argv, cx, class, why)
	if sub == "config" && class > ReadOnly && len(ops) >= 2 && ops[0].lit {
		// git config core.fsmonitor CMD: a later git status runs CMD.
		for _, r := range a.gitConfig("-c", arg{val: ops[0].val + "=" + ops[1].val, lit: ops[1].lit}) {
			a.out.Commands[i].raise(r.class, r.why)
		}
	}
	for _, f := range values(flags, "--output") {
		a.checkWrite(i, arg{val: f.value, lit: f.lit})
	}
	if sub == "grep" && hasPrefix(flags, "--open-files-in-pager", "-O") {
		a.out.Commands[i].raise(RunsCode, "git grep -O opens the files in a program")
	}
	if unsafeGlobal != "" {
		a.out.Commands[i].raise(RunsCode, unsafeGlobal)
	}
	for _, r := range a.gitRuns(sub, args[1:]) {
		a.out.Commands[i].raise(r.class, r.why)
	}
	if class > ReadOnly {
		// A writing git command writes into the repository it runs in,
		// or the one --git-dir and --work-tree name.
		a.checkWrite(i, arg{val: ".", lit: true})
		for _, d := range trees {
			a.checkWrite(i, d)
		}
	}
}

func gitClass(sub string, flags []flag, ops []arg) (Class, string) {
	switch sub {
	case "push":
		for _, op := range ops {
			if strings.HasPrefix(op.val, "+") {
				return Dangerous, "force-pushes (+refspec), overwriting remote history"
			}
		}
		if has(flags, "-f", "--force", "--mirror") || hasPrefix(flags, "--force-with-lease", "--force-if-includes", "--forc", "--mirr") {
			return Dangerous, "force-pushes, overwriting remote history"
		}
		return Mutating, "pushes to a remote"
	case "reset":
		if has(flags, "--hard") || hasPrefix(flags, "--har") {
			return Dangerous, "git reset --hard discards uncommitted changes"
		}
		return Mutating, ""
	case "clean":
		if has(flags, "-n", "--dry-run") && !has(flags, "-f", "--force") {
			return ReadOnly, ""
		}
		if has(flags, "-f", "--force") || hasPrefix(flags, "--forc") {
			return Dangerous, "git clean -f deletes untracked files"
		}
		return Mutating, ""
	case "checkout", "restore":
		if has(flags, "-f", "--force") && sub == "checkout" {
			return Dangerous, "git checkout -f discards uncommitted changes"
		}
		staged := has(flags, "--staged", "-S") && !has(flags, "--worktree", "-W")
		for _, op := range ops {
			if (op.val == "." || op.val == ":/" || op.val == "*") && !staged {
				return Dangerous, "discards all uncommitted changes"
			}
		}
		return Mutating, ""
	case "filter-branch", "filter-repo":
		return Dangerous, "rewrites the whole repository history"
	case "reflog":
		if len(ops) > 0 && (ops[0].val == "expire" || ops[0].val == "delete") {
			return Dangerous, "destroys the reflog, which recovers lost work"
		}
		return ReadOnly, ""
	case "gc", "prune":
		if hasPrefix(flags, "--prune") || sub == "prune" {
			return Dangerous, "prunes unreachable objects, which recovers lost work"
		}
		return Mutating, ""
	case "stash":
		if len(ops) > 0 && (ops[0].val == "list" || ops[0].val == "show") {
			return ReadOnly, ""
		}
		if len(ops) > 0 && (ops[0].val == "clear" || ops[0].val == "drop") {
			return Dangerous, "deletes stashed changes"
		}
		return Mutating, ""
	case "branch":
		if has(flags, "-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-t", "--track", "--no-track") {
			return Mutating, "changes branches"
		}
		if len(ops) > 0 && !has(flags, "-l", "--list") {
			return Mutating, "creates a branch"
		}
		return ReadOnly, ""
	case "tag":
		if has(flags, "-d", "--delete", "-a", "--annotate", "-s", "--sign", "-f", "--force", "-m", "-F", "-u") {
			return Mutating, "changes tags"
		}
		if len(ops) > 0 && !has(flags, "-l", "--list") {
			return Mutating, "creates a tag"
		}
		return ReadOnly, ""
	case "remote":
		if len(ops) == 0 || ops[0].val == "show" || ops[0].val == "get-url" {
			return ReadOnly, ""
		}
		return Mutating, "changes remotes"
	case "config":
		global := has(flags, "--global", "--system") || hasPrefix(flags, "--file")
		read := has(flags, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l") ||
			(len(ops) > 0 && (ops[0].val == "get" || ops[0].val == "list")) || len(ops) == 1
		if read {
			return ReadOnly, ""
		}
		if global {
			return Dangerous, "changes the user's or system's git configuration"
		}
		return Mutating, "changes the repository's git configuration"
	case "worktree":
		if len(ops) > 0 && ops[0].val == "list" {
			return ReadOnly, ""
		}
		return Mutating, ""
	case "submodule":
		if len(ops) == 0 || ops[0].val == "status" || ops[0].val == "summary" {
			return ReadOnly, ""
		}
		return Mutating, ""
	}
	if gitReadOnly[sub] {
		if hasPrefix(flags, "--output") {
			return Mutating, "git " + sub + " --output writes a file"
		}
		return ReadOnly, ""
	}
	return Mutating, ""
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_git_0 = spec{valued: set("-m", "-F", "-C", "-c", "-b", "-B", "-u", "-n", "-S", "-G", "-L", "--format", "--pretty", "--author", "--since", "--until", "--grep", "--sort", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--set-upstream-to")}
)

// safeGitConfig are configuration prefixes that only change output or
// identity; any other key given with -c may name a program (core.pager,
// core.fsmonitor, core.sshCommand, diff.*.textconv, alias.*, ...), so its
// value is analysed as a command.
var safeGitConfig = []string{"color.", "user.", "advice.", "core.quotepath", "init.defaultbranch", "commit.gpgsign",
	"tag.gpgsign", "log.", "column.", "i18n.", "gc.auto", "safe.directory", "core.autocrlf", "core.filemode",
	"core.abbrev", "diff.renames", "diff.algorithm", "diff.noprefix", "merge.conflictstyle", "pull.rebase", "status."}

func (a *analyzer) gitConfig(opt string, val arg) []classWhy {
	if !val.lit {
		return []classWhy{{Dangerous, "git " + opt + " sets configuration computed at run time (" + val.val + ")"}}
	}
	key, value, _ := strings.Cut(val.val, "=")
	if opt != "-c" {
		// --config-env=key=ENVVAR: the value comes from the environment.
		return []classWhy{{Dangerous, "git --config-env takes " + key + " from an environment variable the analysis cannot see"}}
	}
	low := strings.ToLower(key)
	for _, p := range safeGitConfig {
		if strings.HasPrefix(low, p) {
			return nil
		}
	}
	out := []classWhy{{RunsCode, "git -c " + key + " can make git run a program"}}
	return append(out, a.commandValue("git -c "+key, value)...)
}
