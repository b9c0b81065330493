package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// ReadPaths lists what a command line may read, as absolute paths: the
// operands of its sub-commands as shellcheck parsed them (wrappers such as
// bash -c unwrapped; "--flag=value" values included; globs expanded as the
// shell would; $PWD and $HOME resolved), its input redirections, and what
// a command reads without naming it (impliedReads: a recursive search with
// no path searches the working directory; `git show REV:path` reads path).
// An operand that exists is taken as read: most commands that name a file
// read it, and the cost of a false positive is a refusal naming the rule,
// not a leak. Other computed operands ($X, $(cmd)) cannot be resolved and
// are not listed; shellcheck's class already makes such commands need a
// human.
func ReadPaths(command string, an shellcheck.Analysis, ws shellcheck.Workspace) []string {
	r := newReader(ws)
	for _, sub := range an.Commands {
		for _, a := range sub.Args {
			if strings.HasPrefix(a, "-") {
				if _, v, ok := strings.Cut(a, "="); ok {
					r.add(v)
				}
				continue
			}
			r.add(a)
		}
		r.implied(sub, command)
	}
	for _, f := range inputRedirects(command) {
		r.add(f)
	}
	return r.out
}

// reader collects the paths of one command line.
type reader struct {
	ws   shellcheck.Workspace
	cwd  string
	seen map[string]bool
	out  []string
}

func newReader(ws shellcheck.Workspace) *reader {
	cwd := ws.Cwd
	if (cwd == "" || !filepath.IsAbs(cwd)) && len(ws.Roots) > 0 {
		cwd = filepath.Join(ws.Roots[0], cwd)
	}
	return &reader{ws: ws, cwd: cwd, seen: map[string]bool{}}
}

// abs resolves a word to an absolute path ("" when it cannot be placed).
// $PWD and $HOME are known here, so `cat $PWD/.env` is the read it looks
// like rather than an operand nobody can resolve.
func (r *reader) abs(word string) string {
	word = strings.TrimSpace(word)
	for _, v := range []struct{ name, val string }{{"PWD", r.cwd}, {"HOME", r.ws.Home}} {
		for _, form := range []string{"${" + v.name + "}", "$" + v.name} {
			if rest, ok := strings.CutPrefix(word, form); ok && (rest == "" || rest[0] == '/') && v.val != "" {
				word = v.val + rest
			}
		}
	}
	if word == "" || word == "-" || strings.ContainsAny(word, "$`") {
		return ""
	}
	if rest, ok := strings.CutPrefix(word, "~/"); ok {
		if r.ws.Home == "" {
			return ""
		}
		word = filepath.Join(r.ws.Home, rest)
	}
	if !filepath.IsAbs(word) {
		if r.cwd == "" {
			return ""
		}
		word = filepath.Join(r.cwd, word)
	}
	return word
}

// existing is what word names on disk now, globs expanded.
func (r *reader) existing(word string) []string {
	w := r.abs(word)
	if w == "" {
		return nil
	}
	matches := []string{w}
	if strings.ContainsAny(w, "*?[") {
		matches, _ = filepath.Glob(w)
	}
	var out []string
	for _, m := range matches {
		if _, err := os.Lstat(m); err == nil {
			out = append(out, filepath.Clean(m))
		}
	}
	return out
}

func (r *reader) add(word string) {
	for _, m := range r.existing(word) {
		r.keep(m)
	}
}

// keep lists an absolute path whether or not it exists now (a path in
// another revision may be gone from the working tree).
func (r *reader) keep(abs string) {
	if abs == "" || r.seen[abs] {
		return
	}
	r.seen[abs] = true
	r.out = append(r.out, abs)
}

// inputRedirects are the literal files of "<" and "<>" redirections
// anywhere in the command line.
func inputRedirects(command string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && r.Word != nil {
			if lit := r.Word.Lit(); lit != "" {
				out = append(out, lit)
			}
		}
		return true
	})
	return out
}

// EvaluateReads decides on reading paths (absolute) under the Read rules:
// the first deny, else the first ask. A folder counts as read with
// everything below it, so `grep -r KEY .` meets Read(.env). Allow rules
// have nothing to add: reads need no permission unless a rule restricts
// them.
func (p *Policy) EvaluateReads(paths []string) Decision {
	return p.firstReadRule(func(r Rule) string {
		for _, path := range paths {
			if p.matches(r, Action{Tool: ToolRead, Path: path}) || p.matchesBelow(r, path) {
				return path
			}
		}
		return ""
	})
}

// firstReadRule applies the Read rules in their order of precedence: the
// first deny whose match names a path, else the first ask.
func (p *Policy) firstReadRule(match func(r Rule) string) Decision {
	for _, list := range []struct {
		rules []Rule
		v     Verdict
	}{{p.Deny, Deny}, {p.Ask, Ask}} {
		for _, r := range list.rules {
			if r.Tool != ToolRead {
				continue
			}
			if m := match(r); m != "" {
				return Decision{Verdict: list.v, Rule: r, Command: m}
			}
		}
	}
	return Decision{}
}

// matchesBelow reports whether a Read rule names something inside the
// folder dir.
func (p *Policy) matchesBelow(r Rule, dir string) bool {
	return p.firstBelow(r, dir, nil) != ""
}

// firstBelow is the first path inside the folder dir that the Read rule
// names and keep accepts (nil accepts all); "" when none. The rule's
// pattern is globbed in the root it is relative to (literal patterns such
// as .env cost one stat), and the walk stops at the first match.
func (p *Policy) firstBelow(r Rule, dir string, keep func(abs string) bool) string {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return ""
	}
	if r.Specifier == "" {
		return dir
	}
	pat := pathPattern(r.Specifier)
	var bases []string
	switch {
	case strings.HasPrefix(r.Specifier, "//"):
		bases = []string{"/"}
		pat = strings.TrimPrefix(pat, "/")
	case strings.HasPrefix(r.Specifier, "~/"):
		if p.Workspace.Home != "" {
			bases = []string{p.Workspace.Home}
		}
	default:
		bases = p.Workspace.Roots
	}
	for _, base := range bases {
		found := ""
		_ = doublestar.GlobWalk(os.DirFS(base), pat, func(rel string, _ fs.DirEntry) error {
			abs := filepath.Join(base, filepath.FromSlash(rel))
			if inside(abs, dir) && (keep == nil || keep(abs)) {
				found = abs
				return errFound
			}
			return nil
		}, doublestar.WithNoFollow())
		if found != "" {
			return found
		}
	}
	return ""
}

var errFound = errors.New("found")

func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
