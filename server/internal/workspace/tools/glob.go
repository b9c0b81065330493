package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

//go:embed descriptions/glob.md
var globDesc string

const globMaxResults = 1000

type globArgs struct {
	Pattern string `json:"pattern" jsonschema:"required" jsonschema_description:"Glob relative to the workspace root, e.g. **/*.go or src/**/*_test.ts."`
}

// Glob returns the glob tool.
func Glob() Tool {
	return &define[globArgs]{
		name: "glob", desc: globDesc, traits: Searches,
		defaults: func() globArgs { return globArgs{} },
		run:      runGlob,
	}
}

func runGlob(ctx context.Context, env *Env, a globArgs) (Result, error) {
	pat := filepath.ToSlash(strings.TrimSpace(a.Pattern))
	if pat == "" {
		return FailShown("glob: pattern must not be empty", env.Tr("%s: the pattern is empty.", "glob")), nil
	}
	if !doublestar.ValidatePattern(pat) {
		return FailShown(fmt.Sprintf("glob: invalid pattern %q", a.Pattern), env.Tr("%s: the pattern %s is not valid.", "glob", a.Pattern)), nil
	}
	sb := sandboxOf(env)
	type hit struct {
		display string
		mtime   time.Time
	}
	var hits []hit
	matchedAny := false
	withheld := 0
	stopped := false
	for i, root := range sb.Roots() {
		rootSlash := filepath.ToSlash(root)
		p := pat
		switch {
		case strings.HasPrefix(p, rootSlash+"/"):
			p = strings.TrimPrefix(p, rootSlash+"/")
		case filepath.IsAbs(filepath.FromSlash(p)) || strings.HasPrefix(p, "/"):
			continue
		case i > 0 && strings.HasPrefix(p, filepath.Base(root)+"/"):
			p = strings.TrimPrefix(p, filepath.Base(root)+"/")
		}
		matchedAny = true
		prefix, _ := doublestar.SplitPattern(p)
		start := root
		if prefix != "." && !strings.ContainsAny(prefix, "*?[{\\") {
			abs, err := sb.Resolve(filepath.Join(root, filepath.FromSlash(prefix)))
			if err != nil {
				continue
			}
			start = abs
		}
		opt := walkOptions{hidden: true, ctx: ctx}
		if last := lastSegment(p); last != "" {
			// A match's name matches the pattern's last segment; trying
			// that first rejects most entries for the cost of matching a
			// short name, before any path is built (10,000 files under
			// pkg00/ for 25 matches).
			opt.report = func(name string) bool {
				ok, _ := doublestar.Match(last, name)
				return ok
			}
		}
		walkFrom(root, start, opt, func(path, rel string, d fs.DirEntry) bool {
			if ctx.Err() != nil {
				return false
			}
			if ok, _ := doublestar.Match(p, rel); ok {
				if env.readable(path) != nil {
					withheld++
					return true
				}
				var mt time.Time
				if fi, err := d.Info(); err == nil {
					mt = fi.ModTime()
				}
				hits = append(hits, hit{sb.Display(path), mt})
			}
			// The walk stops at the cap, so the first page of a 100k-file
			// tree costs what the walk to its first globMaxResults matches
			// costs, not a walk of the whole tree (issue 17).
			if len(hits) >= globMaxResults {
				stopped = true
				return false
			}
			return true
		}, true)
		if stopped {
			break
		}
	}
	if !matchedAny {
		return FailShown(fmt.Sprintf("glob: %q is outside the workspace roots: %s", a.Pattern, strings.Join(sb.Roots(), ", ")),
			env.Tr("Refused: the path %s is outside the workspace or not allowed.", a.Pattern)), nil
	}
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	if len(hits) == 0 {
		return Result{OK: true, Output: fmt.Sprintf("No files match %q.", a.Pattern) + withheldNote(withheld, "matching files")}, nil
	}
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].mtime.Equal(hits[j].mtime) {
			return hits[i].mtime.After(hits[j].mtime)
		}
		return hits[i].display < hits[j].display
	})
	var out strings.Builder
	if stopped {
		fmt.Fprintf(&out, "First %d matches in walk order, newest first among them:\n", len(hits))
	} else {
		fmt.Fprintf(&out, "%d match(es), newest first:\n", len(hits))
	}
	for _, h := range hits {
		out.WriteString(h.display)
		out.WriteByte('\n')
	}
	if stopped {
		fmt.Fprintf(&out, "[Stopped at %d matches before the walk finished, so there are more and newer files may be among them; narrow the pattern (a folder prefix such as src/**/*.go, or an extension) to see the rest.]\n", globMaxResults)
	}
	return Result{OK: true, Output: strings.TrimRight(out.String(), "\n") + withheldNote(withheld, "matching files")}, nil
}

// lastSegment returns the pattern's last path segment when every match's
// last path component must match it on its own, else "": not when the
// segment is or holds "**" (it spans segments), and not when a "/" sits
// inside braces ({a,b/c}) or after an escape, where splitting on it would
// be wrong.
func lastSegment(pat string) string {
	depth, cut := 0, -1
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			// A class is one character; a "/" in it is no separator.
			if j := strings.IndexByte(pat[i:], ']'); j > 0 && strings.Contains(pat[i:i+j], "/") {
				return ""
			}
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth > 0 {
				return ""
			}
			cut = i
		}
	}
	seg := pat[cut+1:]
	if seg == "" || strings.Contains(seg, "**") || strings.Contains(seg, "\\") {
		return ""
	}
	return seg
}
