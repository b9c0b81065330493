package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCapturesAreFresh: the golden files under testdata are what GoVibe
// sends today. A prompt or tool text change fails here until the captures
// are regenerated (go generate ./server/internal/bench/promptcapture), so
// the change shows up in review.
func TestCapturesAreFresh(t *testing.T) {
	cs, err := captureAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, c := range cs {
		want[c.Name+".md"] = true
		b, err := os.ReadFile(filepath.Join("testdata", c.Name+".md"))
		if err != nil {
			t.Errorf("%s: %v (regenerate: go generate ./server/internal/bench/promptcapture)", c.Name, err)
			continue
		}
		if string(b) != c.render() {
			t.Errorf("testdata/%s.md is stale: regenerate it with go generate ./server/internal/bench/promptcapture and review the diff", c.Name)
		}
	}
	for _, r := range []string{"main-agent", "main-plan", "main-phases", "main-reconcile", "executor", "evaluator", "main-final",
		"investigator", "reviewer-edit", "reviewer-shell", "reviewer-plan"} {
		if !want[r+".md"] {
			t.Errorf("no capture of %s", r)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s is no longer captured: delete it", f)
		}
	}
}
