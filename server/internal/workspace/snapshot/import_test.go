package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An old storage slot's snapshots come into the workspace's store whole:
// listed with their metadata, every file readable and restorable, their
// restore records kept; importing again copies nothing, and a slot that
// never held the root is not created by looking.
func TestImportFromAnotherStateDir(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	oldDir, newDir := t.TempDir(), t.TempDir()
	if Exists(oldDir, root) {
		t.Fatal("Exists on an empty state dir")
	}
	writeFile(t, root, "a.txt", "old one", 0o644)
	writeFile(t, root, "deep/dir/b.txt", "old two", 0o755)
	old, err := Open(oldDir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, _, err := old.Snapshot(ctx, Meta{SessionID: "s-old", TurnID: "t1", Turn: 1, Reason: "before turn"})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "a.txt", "old three", 0o644)
	second, _, err := old.Snapshot(ctx, Meta{SessionID: "s-old", TurnID: "t2", Turn: 2})
	if err != nil {
		t.Fatal(err)
	}
	old.logRestore(first.ID, time.Unix(100, 0))
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if !Exists(oldDir, root) || Exists(newDir, root) {
		t.Fatal("Exists does not tell the slot with snapshots from the empty one")
	}

	writeFile(t, root, "a.txt", "new", 0o644)
	mine := openTestStore(t, root, Options{})
	own, _, err := mine.Snapshot(ctx, Meta{SessionID: "s-new"})
	if err != nil {
		t.Fatal(err)
	}
	from, err := Open(oldDir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	n, err := mine.Import(from)
	if err != nil || n != 2 {
		t.Fatalf("Import = %d, %v; want 2", n, err)
	}
	list, err := mine.List("")
	if err != nil || len(list) != 3 || list[0].ID != own.ID {
		t.Fatalf("after the import: %+v, %v", list, err)
	}
	got, err := mine.Get(first.ID)
	if err != nil || got.SessionID != "s-old" || got.TurnID != "t1" || got.Turn != 1 || got.Reason != "before turn" {
		t.Fatalf("imported metadata: %+v, %v", got, err)
	}
	if data, _, ok, err := mine.FileAt(first.ID, "deep/dir/b.txt"); err != nil || !ok || string(data) != "old two" {
		t.Fatalf("imported file: %q, %v", data, err)
	}
	if _, err := mine.Restore(ctx, second.ID); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, root, "a.txt"); got != "old three" {
		t.Fatalf("restoring an imported snapshot wrote %q", got)
	}
	found := false
	for _, r := range mine.readRestoreLog() {
		found = found || (r.id == first.ID && r.time.Equal(time.Unix(100, 0)))
	}
	if !found {
		t.Fatalf("the slot's restore record was not kept: %+v", mine.readRestoreLog())
	}
	if n, err := mine.Import(from); err != nil || n != 0 {
		t.Fatalf("second Import = %d, %v; want 0", n, err)
	}
	if _, err := os.Stat(filepath.Join(newDir, "snapshots")); !os.IsNotExist(err) {
		t.Fatalf("Exists created a store: %v", err)
	}
}
