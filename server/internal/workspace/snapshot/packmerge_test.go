package snapshot

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Packs sorted largest first are merged from the first one smaller than
// twice all those after it; never fewer than two.
func TestMergeSplitIsGeometric(t *testing.T) {
	for _, c := range []struct {
		sizes []int64
		want  int
	}{
		{[]int64{100000, 50, 20, 10, 5}, 1}, // the big first pack stays
		{[]int64{1000, 600, 10, 9}, 0},      // 1000 < 2*619: it goes too
		{[]int64{10, 10, 10, 10}, 0},        // all alike: all merged
		{[]int64{100000, 500, 100, 50}, 2},  // a progression already: the two smallest
	} {
		if got := mergeSplit(c.sizes); got != c.want {
			t.Errorf("mergeSplit(%v) = %d, want %d", c.sizes, got, c.want)
		}
	}
}

// Every snapshot adds a pack; past maxPacks the small ones are merged in
// the background, keeping every object (git fsck --full agrees), the big
// first pack untouched, and the watcher's next scan incremental.
func TestSmallPacksAreMergedKeepingEverything(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		data := make([]byte, 4096) // incompressible: the first pack is the big one
		rng.Read(data)
		writeFile(t, root, fmt.Sprintf("src/d%02d/f%03d.txt", i%10, i), string(data), 0o644)
	}
	s := openTestStore(t, root, Options{Watch: true})
	ctx := context.Background()
	watching := s.WaitWatcher(ctx)
	first, _ := snap(t, s, "first")
	bigPack := packNames(t, s)
	if len(bigPack) != 1 {
		t.Fatalf("the first snapshot wrote %d packs, want 1", len(bigPack))
	}
	var ids []string
	for i := 0; i < maxPacks+3; i++ {
		writeFile(t, root, fmt.Sprintf("src/d%02d/f%03d.txt", i%10, i), fmt.Sprint("edit ", i), 0o644)
		info, created := snap(t, s, fmt.Sprint("edit ", i))
		if !created {
			t.Fatalf("edit %d made no snapshot", i)
		}
		ids = append(ids, info.ID)
		if err := s.Pack(); err != nil { // waits for the background merge
			t.Fatal(err)
		}
	}
	packs := packNames(t, s)
	if len(packs) > maxPacks {
		t.Fatalf("%d packs after %d snapshots, want at most %d", len(packs), maxPacks+4, maxPacks)
	}
	if !contains(packs, bigPack[0]) {
		t.Fatalf("the first snapshot's pack was rewritten: %v", packs)
	}
	runGit(t, s.Dir(), "--git-dir="+s.Dir(), "fsck", "--full", "--strict", "--no-progress")
	for i, id := range append([]string{first.ID}, ids...) {
		if _, err := s.Diff(ctx, id); err != nil {
			t.Fatalf("snapshot %d unreadable after the merge: %v", i, err)
		}
	}
	if data, _, ok, err := s.FileAt(ids[0], "src/d00/f000.txt"); err != nil || !ok || string(data) != "edit 0" {
		t.Fatalf("FileAt after the merge: %q %v %v", data, ok, err)
	}
	writeFile(t, root, "src/d01/f001.txt", "after the merge", 0o644)
	snap(t, s, "after")
	if watching && !s.lastIncremental {
		t.Fatal("the scan after a merge was a full one")
	}
}

func packNames(t *testing.T, s *Store) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(s.Dir(), "objects", "pack"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".pack"); ok {
			out = append(out, name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
