package snapshot

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFIFOIgnoreFilesDoNotBlockTheScan: ignore files the scan opens by
// path (a repository's info/exclude, the root's and a nested one's) may be
// FIFOs; opening one for reading waited for a writer forever (issue 31).
// They are refused like any special file and the snapshot completes.
func TestFIFOIgnoreFilesDoNotBlockTheScan(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	writeFile(t, root, "sub/b.txt", "b", 0o644)
	for _, dir := range []string{".git/info", "sub/.git/info"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(filepath.Join(root, dir, "exclude")); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
	}
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Fatal(err)
	}
	// A nested repository whose .git is a FIFO where a worktree's
	// "gitdir:" file would be.
	writeFile(t, root, "wt/c.txt", "c", 0o644)
	if err := mkfifo(filepath.Join(root, "wt", ".git")); err != nil {
		t.Fatal(err)
	}
	done := make(chan Info, 1)
	go func() {
		s := openTestStore(t, root, Options{})
		info, _ := snap(t, s, "one")
		done <- info
	}()
	select {
	case info := <-done:
		if info.SkippedCount != 1 || info.Skipped[0] != (Skipped{Path: "pipe", Reason: SkipSpecial}) {
			t.Fatalf("Skipped = %+v, want only the FIFO", info.Skipped)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the snapshot did not finish within 20 s: it blocked on a FIFO ignore file")
	}
}
