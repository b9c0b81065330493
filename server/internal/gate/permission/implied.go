package permission

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// Reads a command makes without naming them as operands. The Read rules
// must see them too: `rg KEY` reads the working directory exactly as
// `rg KEY .` does, and `git show HEAD:.env` prints .env.

// cwdSearchers search the working directory recursively when given no
// path (grep only with -r; find only when it runs a command on each file).
var cwdSearchers = map[string]bool{"rg": true, "ag": true, "ack": true, "ugrep": true, "ug": true}

var grepFamily = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "zgrep": true}

// gitContent are git subcommands that print file contents (diffs, blobs,
// matches, blame). With no pathspec they cover the whole repository, but
// only what git tracks (or tracked once): see TrackedReads.
var gitContent = map[string]bool{"diff": true, "show": true, "grep": true, "blame": true, "annotate": true,
	"cat-file": true, "archive": true, "format-patch": true, "diff-tree": true, "diff-index": true,
	"diff-files": true, "range-diff": true, "whatchanged": true, "stash": true, "log": true}

// interpreters run code given inline (-c, -e) or in a script; what the
// code opens is not an operand, so the words of their arguments that name
// existing files count as read (`python3 -c 'open(".env")'`).
var interpreters = map[string]bool{"python": true, "python2": true, "python3": true, "node": true, "nodejs": true,
	"deno": true, "bun": true, "perl": true, "ruby": true, "php": true, "lua": true, "Rscript": true, "tclsh": true}

// pathWord matches the words of code or data that may name a file.
var pathWord = regexp.MustCompile(`[A-Za-z0-9_./~@+-]+`)

// words adds every word of text that names an existing file.
func (r *reader) words(text string) {
	for _, w := range pathWord.FindAllString(text, -1) {
		r.add(w)
	}
}

// implied adds what sub reads without naming it. command is the whole
// line: xargs takes its operands from stdin, often a here-string or a
// here-document of the same line.
func (r *reader) implied(sub shellcheck.SubCommand, command string) {
	name := path.Base(sub.Name)
	switch {
	case interpreters[name] || strings.HasPrefix(name, "python3."):
		for _, a := range sub.Args {
			r.words(a)
		}
	case name == "xargs" || name == "parallel":
		r.words(command)
	case cwdSearchers[name] || grepFamily[name] && recursiveGrep(sub.Args):
		if r.namedPaths(sub.Args, true) == 0 {
			r.keep(r.cwd)
		}
	case name == "find" && runsPerFile(sub.Args):
		if len(sub.Args) == 0 || strings.HasPrefix(sub.Args[0], "-") {
			r.keep(r.cwd) // GNU find starts at "." when no path comes first
		}
	case name == "git":
		sc, args := gitSubcommand(sub.Args)
		if !gitContent[sc] {
			return
		}
		top := r.repoTop()
		for _, a := range args {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "://") {
				continue
			}
			// REV:path (and :path, the index) names a file relative to
			// the repository's top, or to the cwd when it starts with ./
			_, p, ok := strings.Cut(a, ":")
			if !ok || p == "" {
				continue
			}
			base := top
			if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
				base = r.cwd
			}
			if base != "" {
				r.keep(filepath.Join(base, filepath.FromSlash(p)))
			}
		}
	}
}

// namedPaths counts the existing paths among a search command's operands,
// its first operand being the pattern unless -e or -f gave one. A flag's
// value taken for an operand only makes the count smaller, so the
// mistake falls on the side of reading the working directory.
func (r *reader) namedPaths(args []string, patternFirst bool) int {
	n := 0
	pattern := patternFirst
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flag, _, _ := strings.Cut(a, "=")
			switch flag {
			case "-e", "--regexp", "-f", "--file":
				pattern = false
			}
			if len(flag) > 2 && flag[1] != '-' && strings.ContainsAny(flag[1:], "ef") && grepShortFlags(flag) {
				pattern = false
			}
			continue
		}
		if pattern {
			pattern = false
			continue
		}
		if len(r.existing(a)) > 0 {
			n++
		}
	}
	return n
}

// grepShortFlags reports whether a bundle of short flags ends in -e or -f
// (e.g. -ie PATTERN), which then take the pattern.
func grepShortFlags(flag string) bool {
	last := flag[len(flag)-1]
	return last == 'e' || last == 'f'
}

func recursiveGrep(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--recursive" || a == "--dereference-recursive" || a == "-d" || a == "--directories=recurse":
			return true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "rR"):
			return true
		}
	}
	return false
}

func runsPerFile(args []string) bool {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			return true
		}
	}
	return false
}

// gitSubcommand skips git's global options.
func gitSubcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:]
		}
	}
	return "", nil
}

// repoTop is the git work tree holding the cwd (the cwd itself when none
// is found below the filesystem root).
func (r *reader) repoTop() string {
	for d := r.cwd; d != ""; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return r.cwd
}

// TrackedReads are the repositories a command reads through git with no
// pathspec (`git diff`, `git log -p`, `git show`, `git grep`): it prints
// the content of every file git tracks there, or tracked in history, and
// of nothing else. EvaluateTracked judges them.
func TrackedReads(an shellcheck.Analysis, ws shellcheck.Workspace) []string {
	r := newReader(ws)
	var out []string
	for _, sub := range an.Commands {
		if path.Base(sub.Name) != "git" {
			continue
		}
		sc, args := gitSubcommand(sub.Args)
		if !gitContent[sc] || sc == "log" && !logPrintsContent(args) {
			continue
		}
		named := false
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			// A REV:path names its file (ReadPaths judged it).
			if _, p, ok := strings.Cut(a, ":"); ok && p != "" || len(r.existing(a)) > 0 {
				named = true
			}
		}
		if !named {
			out = append(out, r.repoTop())
		}
	}
	return out
}

// logPrintsContent: git log shows file contents only as patches.
func logPrintsContent(args []string) bool {
	for _, a := range args {
		if a == "-p" || a == "-u" || a == "--patch" || strings.HasPrefix(a, "-L") || a == "--patch-with-stat" || a == "--cc" {
			return true
		}
	}
	return false
}

// EvaluateTracked decides on reading every file git tracks (now or in
// history) below each of tops, under the Read rules: a rule's match
// counts only when git knows the file, so `git diff` stays usable in a
// repository whose ignored .env a rule protects.
func (p *Policy) EvaluateTracked(tops []string) Decision {
	return p.firstReadRule(func(r Rule) string {
		for _, top := range tops {
			if m := p.firstBelow(r, top, func(abs string) bool { return gitKnows(top, abs) }); m != "" {
				return m
			}
		}
		return ""
	})
}

// gitKnows reports whether git tracks abs in the repository at top, in
// the index or in any commit. An error counts as known: the safe side.
func gitKnows(top, abs string) bool {
	rel, err := filepath.Rel(top, abs)
	if err != nil {
		return true
	}
	for _, args := range [][]string{{"ls-files", "-z", "--", rel}, {"log", "--all", "-n1", "--format=%H", "--", rel}} {
		cmd := exec.Command("git", append([]string{"-C", top}, args...)...)
		out, err := cmd.Output()
		if err != nil || len(strings.TrimSpace(string(out))) > 0 {
			return true
		}
	}
	return false
}
