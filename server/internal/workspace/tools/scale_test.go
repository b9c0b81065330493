package tools

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/test/gentree"
)

// Over a tree larger than the cap, glob stops walking at globMaxResults
// matches, says so, and returns the same page every time; below the cap
// it reports every match with no note.
func TestGlobStopsAtCapDeterministically(t *testing.T) {
	env, root := newEnv(t)
	if err := gentree.Sources(root, 1600); err != nil { // 1,200 .go files
		t.Fatal(err)
	}
	first := call(t, Glob(), env, map[string]any{"pattern": "**/*.go"})
	wantOK(t, first, "First 1000 matches", "[Stopped at 1000 matches", "narrow the pattern")
	lines := strings.Split(first.Output, "\n")
	if got := len(lines) - 2; got != globMaxResults {
		t.Fatalf("got %d paths, want %d", got, globMaxResults)
	}
	again := call(t, Glob(), env, map[string]any{"pattern": "**/*.go"})
	if again.Output != first.Output {
		t.Fatal("the capped page differs between two runs over an unchanged tree")
	}
	// A narrower pattern reaches files the capped page did not show.
	narrow := call(t, Glob(), env, map[string]any{"pattern": "pkg00/mod012/*.go"})
	wantOK(t, narrow, filepath.ToSlash(filepath.Join("pkg00", "mod012", "file001201.go")))
	if strings.Contains(narrow.Output, "Stopped") {
		t.Fatalf("uncapped result carries the cap note:\n%s", narrow.Output)
	}
}

// list_files stops at maxEntries in lexical walk order, the same page on
// every call.
func TestListFilesCapIsDeterministic(t *testing.T) {
	env, root := newEnv(t)
	if err := gentree.Sources(root, 600); err != nil {
		t.Fatal(err)
	}
	a := call(t, ListFiles(), env, map[string]any{"recursive": true, "maxEntries": 50})
	wantOK(t, a, "Stopped at 50 entries", "pkg00/\npkg00/mod000/\npkg00/mod000/file000000.ts")
	b := call(t, ListFiles(), env, map[string]any{"recursive": true, "maxEntries": 50})
	if a.Output != b.Output {
		t.Fatal("capped list_files differs between two runs")
	}
}
