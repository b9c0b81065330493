package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

//go:embed descriptions/grep_search.md
var grepSearchDesc string

const (
	grepDefaultResults = 100
	grepMaxResults     = 500
	// grepCollectCap bounds how many matches are gathered before sorting;
	// beyond it the result says the search is too broad.
	grepCollectCap = 20000
	grepMaxLineLen = 300
)

type grepArgs struct {
	Pattern        string `json:"pattern" jsonschema:"required" jsonschema_description:"Text to search for (a regular expression when isRegex is true)."`
	Path           string `json:"path,omitempty" jsonschema_description:"File or folder to search; defaults to all workspace roots."`
	IncludePattern string `json:"includePattern,omitempty" jsonschema_description:"Glob(s) of files to search, comma-separated, e.g. *.go or src/**/*.ts."`
	ExcludePattern string `json:"excludePattern,omitempty" jsonschema_description:"Glob(s) of files or folders to skip, comma-separated."`
	IsRegex        bool   `json:"isRegex,omitempty" jsonschema:"default=false" jsonschema_description:"Treat pattern as a regular expression."`
	CaseSensitive  bool   `json:"caseSensitive,omitempty" jsonschema:"default=false" jsonschema_description:"Match case exactly."`
	MaxResults     int    `json:"maxResults,omitempty" jsonschema:"minimum=1,maximum=500,default=100" jsonschema_description:"Maximum matching lines to return (at most 500)."`
}

// GrepSearch returns the grep_search tool.
func GrepSearch() Tool {
	return &define[grepArgs]{
		name: "grep_search", desc: grepSearchDesc, traits: Searches,
		defaults: func() grepArgs { return grepArgs{MaxResults: grepDefaultResults} },
		run:      runGrep,
	}
}

// grepQuery is a validated search, shared by the ripgrep and Go engines so
// both return the same matches.
type grepQuery struct {
	pattern       string
	regex         bool
	caseSensitive bool
	includes      []string
	excludes      []string
}

// grepHit is one matching line; rel is slash-separated and relative to the
// searched folder (or the file's name when a file was searched).
type grepHit struct {
	rel  string
	line int
	text string
}

// grepEngine runs a query below start (a folder, or a single file);
// base is the workspace root whose .gitignore files apply.
type grepEngine func(ctx context.Context, base, start string, q grepQuery, limit int) ([]grepHit, error)

func runGrep(ctx context.Context, env *Env, a grepArgs) (Result, error) {
	if a.Pattern == "" {
		return FailShown("grep_search: pattern must not be empty", env.Tr("%s: the pattern is empty.", "grep_search")), nil
	}
	if a.MaxResults <= 0 {
		a.MaxResults = grepDefaultResults
	}
	a.MaxResults = min(a.MaxResults, grepMaxResults)
	q := grepQuery{pattern: a.Pattern, regex: a.IsRegex, caseSensitive: a.CaseSensitive,
		includes: splitGlobs(a.IncludePattern), excludes: splitGlobs(a.ExcludePattern)}
	if q.regex {
		if _, err := regexp.Compile(a.Pattern); err != nil {
			return FailShown(fmt.Sprintf("grep_search: invalid regular expression: %v (set isRegex=false to search literally)", err),
				env.Tr("The search pattern %s is not a valid regular expression.", a.Pattern)), nil
		}
	}
	for _, g := range append(append([]string(nil), q.includes...), q.excludes...) {
		if !doublestar.ValidatePattern(g) {
			return FailShown(fmt.Sprintf("grep_search: invalid glob %q", g), env.Tr("%s: the pattern %s is not valid.", "grep_search", g)), nil
		}
	}
	sb := sandboxOf(env)
	var starts []string
	if a.Path == "" {
		starts = sb.Roots()
	} else {
		abs, err := sb.Resolve(a.Path)
		if err != nil {
			return failFrom(env, err), nil
		}
		if err := env.readable(abs); err != nil {
			return failFrom(env, err), nil
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return notFound(env, sb, "path", a.Path, abs), nil
		}
		if safefile.Special(fi.Mode()) {
			// ripgrep and the Go engine would both open it: a FIFO
			// blocks the search, a device never ends it.
			return readFailure(env, a.Path, &safefile.KindError{Path: abs, Mode: fi.Mode().Type()}), nil
		}
		starts = []string{abs}
	}
	engine := pickGrepEngine(env)
	type fileHits struct {
		display string
		hits    []grepHit
	}
	byFile := map[string]*fileHits{}
	total := 0
	// Matches in files the Read rules deny are withheld, per file.
	withheld := map[string]bool{}
	for _, start := range starts {
		hits, err := engine(ctx, sb.Root(start), start, q, grepCollectCap)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return FailShown("grep_search: "+err.Error(), env.Tr("The search failed: %v", err)), nil
		}
		dir := start
		if fi, err := os.Stat(start); err == nil && !fi.IsDir() {
			dir = filepath.Dir(start)
		}
		for _, h := range hits {
			abs := filepath.Join(dir, filepath.FromSlash(h.rel))
			if env.readable(abs) != nil {
				withheld[abs] = true
				continue
			}
			d := sb.Display(abs)
			fh := byFile[d]
			if fh == nil {
				fh = &fileHits{display: d}
				byFile[d] = fh
			}
			fh.hits = append(fh.hits, h)
			total++
		}
	}
	if total == 0 {
		where := "the workspace"
		if a.Path != "" {
			where = a.Path
		}
		return Result{OK: true, Output: fmt.Sprintf("No matches for %q in %s.", a.Pattern, where) + withheldNote(len(withheld), "file(s) with matches")}, nil
	}
	var out strings.Builder
	shown := 0
	files := sortedKeys(byFile)
	for _, f := range files {
		if shown == a.MaxResults {
			break
		}
		fh := byFile[f]
		sort.Slice(fh.hits, func(i, j int) bool { return fh.hits[i].line < fh.hits[j].line })
		if shown > 0 {
			out.WriteByte('\n')
		}
		for _, h := range fh.hits {
			if shown == a.MaxResults {
				break
			}
			fmt.Fprintf(&out, "%s:%d:%s\n", f, h.line, clipLine(h.text))
			shown++
		}
	}
	header := fmt.Sprintf("%d matches in %d files", total, len(files))
	switch {
	case total >= grepCollectCap:
		header = fmt.Sprintf("More than %d matches; showing the first %d by path. Narrow the pattern or the path.", grepCollectCap, shown)
	case shown < total:
		header += fmt.Sprintf(" (showing the first %d by path; raise maxResults up to %d or narrow the search)", shown, grepMaxResults)
	}
	return Result{OK: true, Output: header + ":\n" + strings.TrimRight(out.String(), "\n") + withheldNote(len(withheld), "file(s) with matches")}, nil
}

func clipLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= grepMaxLineLen {
		return s
	}
	return string([]rune(s)[:grepMaxLineLen]) + "…"
}

// splitGlobs splits on commas outside {…} so "*.{ts,tsx},*.go" is two globs.
func splitGlobs(s string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth = max(0, depth-1)
		case ',':
			if depth == 0 {
				if g := strings.TrimSpace(s[from:i]); g != "" {
					out = append(out, g)
				}
				from = i + 1
			}
		}
	}
	if g := strings.TrimSpace(s[from:]); g != "" {
		out = append(out, g)
	}
	return out
}

// pickGrepEngine prefers ripgrep (the configured path, then rg on PATH).
func pickGrepEngine(env *Env) grepEngine {
	if p := findRipgrep(env.Settings.RipgrepPath); p != "" {
		return func(ctx context.Context, base, start string, q grepQuery, limit int) ([]grepHit, error) {
			return grepRipgrep(ctx, p, start, q, limit)
		}
	}
	return grepGo
}

func findRipgrep(configured string) string {
	if configured != "" {
		if p, err := exec.LookPath(configured); err == nil {
			return p
		}
		return ""
	}
	if p, err := exec.LookPath("rg"); err == nil {
		return p
	}
	return ""
}

// globMatch applies ripgrep's -g rule: a glob without a slash matches the
// base name at any depth, one with a slash matches the relative path.
func globMatch(glob, rel string) bool {
	g := strings.TrimPrefix(glob, "/")
	if !strings.Contains(g, "/") {
		ok, _ := doublestar.Match(g, rel[strings.LastIndexByte(rel, '/')+1:])
		return ok
	}
	ok, _ := doublestar.Match(g, rel)
	return ok
}
