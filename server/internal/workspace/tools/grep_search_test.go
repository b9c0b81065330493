package tools

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// grepCorpus builds a small tree exercising every rule both engines must
// agree on: nested .gitignore files, negation, hidden files, binary files,
// CRLF, case, and include/exclude globs.
func grepCorpus(t *testing.T, root string) {
	files := map[string]string{
		".gitignore":           "build/\n*.log\n!keep.log\n",
		"main.go":              "package main\n// TODO: Fix me\nfunc main() { todo() }\n",
		"README.md":            "Todo list\nnothing else\n",
		"keep.log":             "todo kept despite *.log\n",
		"debug.log":            "todo ignored\n",
		"build/out.go":         "todo in build\n",
		"src/a.ts":             "const todo = 1;\r\nlet TODO2 = 2;\r\n",
		"src/b.tsx":            "// todo tsx\n",
		"src/.gitignore":       "gen/\nsecret.ts\n",
		"src/secret.ts":        "todo secret\n",
		"src/gen/x.ts":         "todo generated\n",
		"src/deep/c.go":        "x := \"todo\"\nfunc todoLater() {}\n",
		".hidden/h.txt":        "todo hidden\n",
		"vendor/v.go":          "todo vendored\n",
		"bin/blob.bin":         "todo\x00binary\n",
		"multi.txt":            "todo todo todo\nno\nTODO again\n",
		"sub/.gitignore":       "*.md\n",
		"sub/doc.md":           "todo doc ignored by sub\n",
		"sub/doc.txt":          "to\ndo split over lines\n",
		"unicode.txt":          "Ünïcödé todo ümlaut\n",
		"long.txt":             strings.Repeat("todo ", 200) + "\n",
		"src/deep/deeper/d.go": "package deeper // todo\n",
	}
	for p, c := range files {
		write(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
}

func requireRipgrep(t testing.TB) string {
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Fatal("ripgrep (rg) is required for this test: apt-get install -y ripgrep")
	}
	return p
}

func TestGrepEnginesAgree(t *testing.T) {
	rg := requireRipgrep(t)
	_, root := newEnv(t)
	grepCorpus(t, root)
	queries := []grepQuery{
		{pattern: "todo"},
		{pattern: "todo", caseSensitive: true},
		{pattern: "TODO", caseSensitive: true},
		{pattern: "t.d.", regex: true},
		{pattern: `^func \w+`, regex: true},
		{pattern: `todo$`, regex: true},
		{pattern: `to\s+do`, regex: true},
		{pattern: "todo", includes: []string{"*.go"}},
		{pattern: "todo", includes: []string{"src/**/*.ts", "*.tsx"}},
		{pattern: "todo", excludes: []string{"src"}},
		{pattern: "todo", excludes: []string{"*.go", "deep"}},
		{pattern: "ümlaut"},
		{pattern: "ÜNÏCÖDÉ"},
		{pattern: "nothing matches this"},
	}
	for _, q := range queries {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			for _, start := range []string{root, filepath.Join(root, "src"), filepath.Join(root, "main.go")} {
				a, err := grepRipgrep(context.Background(), rg, start, q, 1000)
				if err != nil {
					t.Fatal(err)
				}
				b, err := grepGo(context.Background(), root, start, q, 1000)
				if err != nil {
					t.Fatal(err)
				}
				sortHits(a)
				sortHits(b)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("start %s:\nripgrep %v\ngo      %v", start, a, b)
				}
			}
		})
	}
	// The corpus really exercises the rules.
	hits, _ := grepGo(context.Background(), root, root, grepQuery{pattern: "todo"}, 1000)
	var files []string
	for _, h := range hits {
		files = append(files, h.rel)
	}
	got := strings.Join(files, " ")
	for _, skipped := range []string{"debug.log", "build/", "secret.ts", "gen/", ".hidden", "blob.bin", "doc.md"} {
		if strings.Contains(got, skipped) {
			t.Fatalf("%s should be skipped: %s", skipped, got)
		}
	}
	for _, kept := range []string{"keep.log", "main.go", "src/a.ts", "src/deep/c.go", "vendor/v.go"} {
		if !strings.Contains(got, kept) {
			t.Fatalf("%s should be found: %s", kept, got)
		}
	}
}

func sortHits(h []grepHit) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].rel != h[j].rel {
			return h[i].rel < h[j].rel
		}
		return h[i].line < h[j].line
	})
}

func TestGrepSearchTool(t *testing.T) {
	env, root := newEnv(t)
	grepCorpus(t, root)
	for _, engine := range []string{"rg", "go"} {
		t.Run(engine, func(t *testing.T) {
			env.Settings.RipgrepPath = ""
			if engine == "go" {
				env.Settings.RipgrepPath = filepath.Join(root, "no-such-rg")
			}
			r := call(t, GrepSearch(), env, map[string]any{"pattern": "todo", "includePattern": "*.go"})
			wantOK(t, r, "main.go:2:// TODO: Fix me\nmain.go:3:func main() { todo() }\n\nsrc/deep/c.go:1:x := \"todo\"")
			r = call(t, GrepSearch(), env, map[string]any{"pattern": "todo", "maxResults": 2})
			wantOK(t, r, "(showing the first 2 by path")
			if n := strings.Count(r.Output, ":1:"); n != 2 {
				t.Fatalf("want 2 result lines:\n%s", r.Output)
			}
			r = call(t, GrepSearch(), env, map[string]any{"pattern": "todo", "path": "long.txt"})
			wantOK(t, r, "long.txt:1:todo", "…")
			wantOK(t, call(t, GrepSearch(), env, map[string]any{"pattern": "zzz-nothing"}), "No matches")
			wantFail(t, call(t, GrepSearch(), env, map[string]any{"pattern": "(", "isRegex": true}), "invalid regular expression")
			wantFail(t, call(t, GrepSearch(), env, map[string]any{"pattern": "x", "path": "scr"}), "path not found: scr", "Did you mean: src")
			wantFail(t, call(t, GrepSearch(), env, map[string]any{"pattern": "x", "path": "/etc"}), "outside the workspace")
			wantFail(t, call(t, GrepSearch(), env, map[string]any{"pattern": "x", "includePattern": "[abc"}), "invalid glob")
		})
	}
}

func TestGrepMultiRoot(t *testing.T) {
	env, root := newEnv(t)
	second := filepath.Join(t.TempDir(), "other")
	write(t, filepath.Join(second, "o.txt"), "needle\n")
	write(t, filepath.Join(root, "r.txt"), "needle\n")
	env.Roots = append(env.Roots, second)
	wantOK(t, call(t, GrepSearch(), env, map[string]any{"pattern": "needle"}), "other/o.txt:1:needle", "r.txt:1:needle")
}
