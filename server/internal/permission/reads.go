package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"

	"github.com/govibe/govibe/server/internal/shellcheck"
)

// ReadPaths lists what a command line may read, as absolute paths that
// exist: the operands of its sub-commands as shellcheck parsed them
// (wrappers such as bash -c unwrapped; "--flag=value" values included;
// globs expanded as the shell would) and its input redirections. An
// operand that exists is taken as read: most commands that name a file
// read it, and the cost of a false positive is a question, not a leak.
// Computed operands ($X, $(cmd)) cannot be resolved and are not listed;
// shellcheck's class already makes such commands need a human.
func ReadPaths(command string, an shellcheck.Analysis, ws shellcheck.Workspace) []string {
	cwd := ws.Cwd
	if (cwd == "" || !filepath.IsAbs(cwd)) && len(ws.Roots) > 0 {
		cwd = filepath.Join(ws.Roots[0], cwd)
	}
	seen := map[string]bool{}
	var out []string
	add := func(word string) {
		word = strings.TrimSpace(word)
		if word == "" || word == "-" || strings.ContainsAny(word, "$`") {
			return
		}
		if rest, ok := strings.CutPrefix(word, "~/"); ok {
			if ws.Home == "" {
				return
			}
			word = filepath.Join(ws.Home, rest)
		}
		if !filepath.IsAbs(word) {
			if cwd == "" {
				return
			}
			word = filepath.Join(cwd, word)
		}
		matches := []string{word}
		if strings.ContainsAny(word, "*?[") {
			matches, _ = filepath.Glob(word)
		}
		for _, m := range matches {
			m = filepath.Clean(m)
			if seen[m] {
				continue
			}
			if _, err := os.Lstat(m); err == nil {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	for _, sub := range an.Commands {
		for _, a := range sub.Args {
			if strings.HasPrefix(a, "-") {
				if _, v, ok := strings.Cut(a, "="); ok {
					add(v)
				}
				continue
			}
			add(a)
		}
	}
	for _, f := range inputRedirects(command) {
		add(f)
	}
	return out
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
	for _, list := range []struct {
		rules []Rule
		v     Verdict
	}{{p.Deny, Deny}, {p.Ask, Ask}} {
		for _, r := range list.rules {
			if r.Tool != ToolRead {
				continue
			}
			for _, path := range paths {
				if p.matches(r, Action{Tool: ToolRead, Path: path}) || p.matchesBelow(r, path) {
					return Decision{Verdict: list.v, Rule: r, Command: path}
				}
			}
		}
	}
	return Decision{}
}

// matchesBelow reports whether a Read rule names something inside the
// folder dir. The rule's pattern is globbed in the root it is relative to
// (literal patterns such as .env cost one stat), and the walk stops at the
// first match.
func (p *Policy) matchesBelow(r Rule, dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	if r.Specifier == "" {
		return true
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
		found := false
		_ = doublestar.GlobWalk(os.DirFS(base), pat, func(rel string, _ fs.DirEntry) error {
			abs := filepath.Join(base, filepath.FromSlash(rel))
			if inside(abs, dir) {
				found = true
				return errFound
			}
			return nil
		}, doublestar.WithNoFollow())
		if found {
			return true
		}
	}
	return false
}

var errFound = errors.New("found")

func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
