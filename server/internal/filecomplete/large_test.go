package filecomplete

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func tree(t *testing.T, root string, dirs, files int) {
	t.Helper()
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, fmt.Sprintf("mod%03d", d/20), fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < files; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// awaitFound asks x until query's best match is want with a complete
// answer (the background listing is in), 30 s at most.
func awaitFound(t *testing.T, x *Index, root, query, want string, o Options) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, partial := x.Complete([]string{root}, query, o)
		if !partial && len(got) > 0 && got[0].Path == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q: %+v (partial %v), want %s first", query, got, partial, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLargeRootIsListedInTheBackground: a root the budget cannot walk
// answers partially at once, then from its full listing (every file
// findable, the answer complete), and a file created later is found once
// the listing is older than MaxAge; a small root never needs a listing.
func TestLargeRootIsListedInTheBackground(t *testing.T) {
	root := t.TempDir()
	tree(t, root, 40, 100)
	o := Options{Budget: time.Nanosecond} // the walk stops at its first deadline check
	x := NewIndex()
	x.MaxAge = 20 * time.Millisecond
	if _, partial := x.Complete([]string{root}, "pkg001file042", o); !partial {
		t.Fatal("a walk cut by the budget was not partial")
	}
	awaitFound(t, x, root, "pkg001file042", "mod000/pkg001/file042.go", o)
	if err := os.WriteFile(filepath.Join(root, "mod000", "pkg001", "fresh.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	awaitFound(t, x, root, "pkg001fresh", "mod000/pkg001/fresh.go", o)

	small := t.TempDir()
	tree(t, small, 1, 10)
	if got, partial := x.Complete([]string{small}, "file007", Options{}); partial || len(got) == 0 || got[0].Path != "mod000/pkg000/file007.go" {
		t.Fatalf("small root: %+v (partial %v)", got, partial)
	}
	x.mu.Lock()
	_, listed := x.roots[small]
	x.mu.Unlock()
	if listed {
		t.Fatal("a root walked within the budget got a listing")
	}
}

// TestFirstResultsFastOn100kFiles measures the figure (creating
// the tree takes half a minute, so it runs when GOVIBE_LARGE_TREE is
// set): on 100,000 files the first answer comes within the 80 ms walk
// budget (plus slack for a loaded machine), and once the listing is in,
// any file is found in about as long.
func TestFirstResultsFastOn100kFiles(t *testing.T) {
	if os.Getenv("GOVIBE_LARGE_TREE") == "" {
		t.Skip("set GOVIBE_LARGE_TREE=1 to build a 100,000-file tree")
	}
	root := t.TempDir()
	tree(t, root, 400, 250)
	x := NewIndex()
	start := time.Now()
	first, partial := x.Complete([]string{root}, "file042", Options{})
	firstTook := time.Since(start)
	t.Logf("first answer: %d matches in %v (partial %v)", len(first), firstTook, partial)
	if len(first) == 0 || firstTook > 180*time.Millisecond {
		t.Fatalf("first answer: %d matches in %v", len(first), firstTook)
	}
	awaitFound(t, x, root, "pkg001file042", "mod000/pkg001/file042.go", Options{})
	start = time.Now()
	got, _ := x.Complete([]string{root}, "pkg377file199", Options{})
	took := time.Since(start)
	t.Logf("from the listing: %v", took)
	if len(got) == 0 || got[0].Path != "mod018/pkg377/file199.go" || took > 300*time.Millisecond {
		t.Fatalf("from the listing: %+v in %v", got, took)
	}
}
