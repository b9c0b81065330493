package filecomplete

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFuzzyRanksBaseNameMatchesFirst: a base-name match beats a scattered
// one; .gitignore'd and hidden files never appear; folders are offered.
func TestFuzzyRanksBaseNameMatchesFirst(t *testing.T) {
	root := t.TempDir()
	write(t, root, "server/internal/engine/engine.go", "server/internal/engine/turn.go", "docs/engineering-notes.md",
		"build/engine.go", ".hidden/engine.go", ".gitignore")
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, partial := Complete([]string{root}, "@engine.go", Options{})
	if partial || len(got) == 0 || got[0].Path != "server/internal/engine/engine.go" {
		t.Fatalf("got %+v (partial %v)", got, partial)
	}
	for _, m := range got {
		if m.Path == "build/engine.go" || m.Path == ".hidden/engine.go" {
			t.Fatalf("ignored file offered: %s", m.Path)
		}
	}
	dirs, _ := Complete([]string{root}, "eng/", Options{})
	found := false
	for _, m := range dirs {
		if m.Path == "server/internal/engine/" {
			found = true
		}
	}
	if !found {
		t.Fatalf("folder not offered: %+v", dirs)
	}
	if none, _ := Complete([]string{root}, "zzzq", Options{}); len(none) != 0 {
		t.Fatalf("non-matching query matched: %+v", none)
	}
}

// TestLargeTreeAnswersWithinBudget: on 5k files the first answer comes
// within the time budget (plus slack for a loaded machine).
func TestLargeTreeAnswersWithinBudget(t *testing.T) {
	root := t.TempDir()
	for d := 0; d < 50; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := time.Now()
	got, _ := Complete([]string{root}, "pkg1file05", Options{Budget: 100 * time.Millisecond})
	if el := time.Since(start); el > time.Second {
		t.Fatalf("took %v", el)
	}
	if len(got) == 0 {
		t.Fatal("no results")
	}
}
