package tools

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// glob rejects an entry whose name does not match the pattern's last
// segment before matching the whole path; that must never drop a match.
// Every (pattern, path) pair that matches in full also matches by name.
func TestGlobLastSegmentNeverDropsAMatch(t *testing.T) {
	pats := []string{"**/*.go", "pkg00/**/file0000*.ts", "*.go", "src/*_test.ts", "a/b", "a/**", "**", "**/", "a/**/b/*",
		"**/*.{ts,go}", "{a,b/c}/*.go", "{a/x,b}", "a/{x,y/z}", "a/[b/c]d", `a\/b`, `a/\*.go`, "*/", "a/*/", "[ab]/c?",
		"**/.*", "a/**/[!.]*", "{**/x,y}", "a/{b,c}/**/d.{js,ts}", "pkg*/mod0[0-1]*/file*", "x/**/*"}
	rels := []string{"a", "b", "a/b", "a/b/c", "a/b/c.go", "x.go", "src/x_test.ts", "src/a/x_test.ts", "pkg00/mod000/file000000.ts",
		"pkg00/mod001/file000100.ts", "a/x", "b/c/z.go", "a/z.go", "a/y/z", "a/bd", "a/b/d", "a/cd", "a/*.go", "a/.hidden",
		"a/b/.x", "x", "y", "q/x", "a/c/e/d.ts", "a/b/d.js", "pkg01/mod012/file010200.go", "x/y", "x/y/z", "c/c"}
	for _, p := range pats {
		last := lastSegment(p)
		if last == "" {
			continue
		}
		for _, r := range rels {
			full, _ := doublestar.Match(p, r)
			byName, _ := doublestar.Match(last, path.Base(r))
			if full && !byName {
				t.Errorf("pattern %q matches %q but its last segment %q does not match %q", p, r, last, path.Base(r))
			}
		}
	}
	for p, want := range map[string]string{"**/*.go": "*.go", "a/**": "", "{a,b/c}/*.go": "", "a/[b/c]d": "", `a\/b`: "", "x.go": "x.go", "a/": ""} {
		if got := lastSegment(p); got != want {
			t.Errorf("lastSegment(%q) = %q, want %q", p, got, want)
		}
	}
}

// With the name prefilter on, glob still walks into directories whose
// names do not match (to reach deep files), still reports directories
// that do, still honours nested .gitignore files, and stops on a
// cancelled context even when no entry ever reaches the match.
func TestGlobNamePrefilterWalk(t *testing.T) {
	env, root := newEnv(t)
	for _, f := range []string{"a/b/c/deep_test.go", "a/b/keep.go", "a/skip/x_test.go", "mods/mod01/y.go", "mods/mod02/z.go", "mods/other/w.go"} {
		write(t, filepath.Join(root, f), "")
	}
	write(t, filepath.Join(root, "a/.gitignore"), "skip/\n")
	wantOK(t, call(t, Glob(), env, map[string]any{"pattern": "**/*_test.go"}), "1 match(es)", "a/b/c/deep_test.go")
	r := call(t, Glob(), env, map[string]any{"pattern": "mods/mod0*"})
	wantOK(t, r, "2 match(es)", "mods/mod01", "mods/mod02")
	if strings.Contains(r.Output, "other") || strings.Contains(r.Output, "y.go") {
		t.Fatalf("glob reported entries the pattern does not match:\n%s", r.Output)
	}
	wantOK(t, call(t, Glob(), env, map[string]any{"pattern": "a/**/keep.go"}), "1 match(es)", "a/b/keep.go")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw, _ := json.Marshal(map[string]any{"pattern": "**/nothing-matches-this"})
	if _, err := Glob().Run(ctx, env, raw); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled glob returned %v, want context.Canceled", err)
	}
}
