package sessions_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/engine"
)

// Deleting a session drops its snapshots and only its own.
func TestDeletingASessionDeletesItsSnapshots(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("1\n"), 0o644)
	e, err := engine.New(engine.Options{Roots: []string{ws}, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	keep, _ := e.Sessions.Create(ctx, "keep")
	gone, _ := e.Sessions.Create(ctx, "gone")
	if _, err := e.Rollback.SnapshotNow(ctx, keep.ID, "first"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("2\n"), 0o644)
	if _, err := e.Rollback.SnapshotNow(ctx, gone.ID, "second"); err != nil {
		t.Fatal(err)
	}
	if err := e.Sessions.Delete(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	if list, _, _ := e.Rollback.Snapshots(gone.ID); len(list) != 0 {
		t.Fatalf("the deleted session's snapshots remain: %+v", list)
	}
	if list, _, _ := e.Rollback.Snapshots(keep.ID); len(list) != 1 {
		t.Fatalf("another session's snapshots were touched: %+v", list)
	}
}
