package snapshot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestShadowRepositoryPassesGitFsckFull: objects, packs and garbage
// collection are written by hand, not by git, so the real git checks the
// result, down to every blob in every pack, after each kind of operation:
// many snapshots (loose objects and packs, incremental with the watcher),
// restores, packing, pruning and deleting a session.
func TestShadowRepositoryPassesGitFsckFull(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	for i := 0; i < 300; i++ { // enough for a scan to write a pack
		writeFile(t, root, fmt.Sprintf("src/p%d/f%d.txt", i%7, i), strings.Repeat(fmt.Sprint(i), 50), 0o644)
	}
	writeFile(t, root, "run.sh", "#!/bin/sh\n", 0o755)
	symlink(t, root, "run.sh", "link")
	s := openTestStore(t, root, Options{Watch: true, LooseObjectLimit: 20, PruneGrace: -1})
	ctx := context.Background()
	s.WaitWatcher(ctx)
	fsckFull := func(when string) {
		t.Helper()
		out := runGit(t, s.Dir(), "--git-dir="+s.Dir(), "fsck", "--full", "--strict", "--no-progress")
		if strings.Contains(out, "error") || strings.Contains(out, "missing") {
			t.Fatalf("git fsck --full after %s:\n%s", when, out)
		}
	}
	var ids []string
	for i := 0; i < 12; i++ {
		writeFile(t, root, fmt.Sprintf("src/p%d/f%d.txt", i%7, i), fmt.Sprint("changed ", i), 0o644)
		writeFile(t, root, fmt.Sprintf("new/n%d.txt", i), fmt.Sprint("new ", i), 0o644)
		info, _, err := s.Snapshot(ctx, Meta{SessionID: fmt.Sprint("s", i%3), Turn: i, Reason: "after turn"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, info.ID)
	}
	fsckFull("snapshots")
	if _, err := s.Restore(ctx, ids[2]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RestoreFile(ctx, ids[5], "src"); err != nil {
		t.Fatal(err)
	}
	fsckFull("restores")
	if err := s.Pack(); err != nil {
		t.Fatal(err)
	}
	fsckFull("packing")
	if n, err := s.DeleteSession("s1"); err != nil || n == 0 {
		t.Fatalf("DeleteSession: %d %v", n, err)
	}
	if n, err := s.Prune(time.Hour, 5); err != nil || n == 0 {
		t.Fatalf("Prune: %d %v", n, err)
	}
	fsckFull("garbage collection")
	// Snapshots after GC (which forgets the remembered trees) still check.
	writeFile(t, root, "after-gc.txt", "x", 0o644)
	snap(t, s, "after gc")
	fsckFull("a snapshot after garbage collection")
}
