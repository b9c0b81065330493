package snapshot

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// Two Stores on one shadow repository stand in for two editor windows on
// the same folder: each must see the other's snapshots and packs, and one's
// garbage collection must not leave the other trusting deleted objects.
func TestTwoStoresShareOneShadowRepository(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	state := t.TempDir()
	writeFile(t, root, "x.txt", "v1", 0o644)
	a, err := Open(state, root, Options{PruneGrace: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(state, root, Options{PruneGrace: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()

	snapA, _, err := a.Snapshot(ctx, Meta{SessionID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	// b writes files into a pack a has never seen.
	writeFile(t, root, "x.txt", "v2", 0o644)
	for i := 0; i < 138; i++ {
		writeFile(t, root, fmt.Sprintf("gen/f%03d.txt", i), fmt.Sprint("generated ", i), 0o644)
	}
	snapB, created, err := b.Snapshot(ctx, Meta{SessionID: "b"})
	if err != nil || !created {
		t.Fatalf("b.Snapshot: %v", err)
	}
	list, err := a.List("")
	if err != nil || len(list) != 2 || list[0].ID != snapB.ID {
		t.Fatalf("a does not see b's snapshot: %+v %v", list, err)
	}
	if data, _, ok, err := a.FileAt(snapB.ID, "gen/f007.txt"); err != nil || !ok || string(data) != "generated 7" {
		t.Fatalf("a cannot read b's packed objects: %q %v", data, err)
	}

	// b prunes a's snapshot; the objects only it used are deleted.
	if n, err := b.Prune(0, 1); err != nil || n != 1 {
		t.Fatalf("b.Prune = %d, %v", n, err)
	}
	if _, err := a.Get(snapA.ID); err == nil {
		t.Fatal("a still finds the pruned snapshot")
	}
	// Back to the pruned content: a must store its blob and trees again
	// rather than trust what it remembered.
	writeFile(t, root, "x.txt", "v1", 0o644)
	if err := removeAll(filepath.Join(root, "gen")); err != nil {
		t.Fatal(err)
	}
	again, created, err := a.Snapshot(ctx, Meta{SessionID: "a"})
	if err != nil || !created {
		t.Fatalf("a.Snapshot after b's GC: created=%v err=%v", created, err)
	}
	if again.tree != snapA.tree {
		t.Fatalf("same content, different tree: %s vs %s", again.tree, snapA.tree)
	}
	fsck(t, a)
	if data, _, ok, err := b.FileAt(again.ID, "x.txt"); err != nil || !ok || string(data) != "v1" {
		t.Fatalf("b cannot read a's new snapshot: %q %v", data, err)
	}
}
