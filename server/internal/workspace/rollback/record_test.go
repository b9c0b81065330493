package rollback

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// The record of a turn's before-snapshots is made once: a plan step or a
// resumed run mutating later must not replace "before the turn" with a
// state that holds the turn's own changes.
func TestBeforeTurnRecordedOncePerRoot(t *testing.T) {
	f := newFixture(t)
	ws1, ws2 := f.repo, f.plain
	ctx := context.Background()
	sid, turnID := f.session(t, "Fix the bug")
	tr := Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug"}
	f.m.RecordBeforeTurn(ctx, tr)
	first := f.m.TurnSnapshots(ctx, sid)[turnID]
	if len(first) != 2 || first[0].Root != min(ws1, ws2) || first[1].Root != max(ws1, ws2) {
		t.Fatalf("want one snapshot per root, sorted by root: %+v", first)
	}
	if len(f.h.turnSnaps) != 1 || f.h.turnSnaps[0].sid != sid || f.h.turnSnaps[0].turnID != turnID || len(f.h.turnSnaps[0].refs) != 2 {
		t.Fatalf("the client was told %+v", f.h.turnSnaps)
	}
	write(t, ws1, "a.txt", "a2\n")
	f.m.RecordBeforeTurn(ctx, tr)
	if again := f.m.TurnSnapshots(ctx, sid)[turnID]; again[0] != first[0] || again[1] != first[1] {
		t.Fatalf("the record changed: %+v, was %+v", again, first)
	}
	if len(f.h.turnSnaps) != 1 {
		t.Fatalf("the client was told twice: %+v", f.h.turnSnaps)
	}
	res, err := f.m.RestoreTurn(ctx, sid, turnID, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws1, "a.txt")); string(b) != "a1\n" {
		t.Fatalf("a.txt not restored: %q", b)
	}
	if res.Notice != "Restored 1 file to before “Fix the bug”" {
		t.Fatalf("notice %q", res.Notice)
	}
}

// Steps of one turn mutating at once (a plan's executors, the editor
// applying an edit) record the turn once.
func TestBeforeTurnRecordedOnceUnderConcurrentCallers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, turnID := f.session(t, "Fix the bug")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug"})
		}()
	}
	wg.Wait()
	if got := f.m.TurnSnapshots(ctx, sid)[turnID]; len(got) != 2 {
		t.Fatalf("record %+v", got)
	}
	if len(f.h.turnSnaps) != 1 {
		t.Fatalf("recorded %d times", len(f.h.turnSnaps))
	}
}

// A turn whose snapshot of one root is gone (pruned) is not offered, and
// restoring it changes nothing: the other roots alone would not be "as
// before the turn".
func TestTurnWithAPrunedSnapshotCannotBeRestored(t *testing.T) {
	f := newFixture(t)
	ws1, ws2 := f.repo, f.plain
	ctx := context.Background()
	sid, _ := f.session(t, "Fix the bug")
	taken, err := f.m.TakeAll(ctx, snapshot.Meta{SessionID: sid, Reason: snapshot.ReasonBeforeTurn})
	if err != nil || len(taken) != 2 {
		t.Fatalf("%v %+v", err, taken)
	}
	refs := []TurnSnapshot{{Root: ws1, ID: taken[0].ID}, {Root: ws2, ID: "0123456789abcdef0123456789abcdef01234567"}}
	if err := sessionstate.Set(ctx, f.st, sid, sessionstate.TurnSnapshots, map[string][]TurnSnapshot{"u1": refs}); err != nil {
		t.Fatal(err)
	}
	if got := f.m.TurnSnapshots(ctx, sid); len(got) != 0 {
		t.Fatalf("a turn missing a root's snapshot is offered: %+v", got)
	}
	write(t, ws1, "a.txt", "a2\n")
	if _, err := f.m.RestoreTurn(ctx, sid, "u1", false); !errors.Is(err, ErrNoTurnSnapshot) {
		t.Fatalf("want ErrNoTurnSnapshot, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws1, "a.txt")); string(b) != "a2\n" {
		t.Fatalf("a.txt changed: %q", b)
	}
}

// With snapshots turned off nothing is taken or recorded, so no turn
// offers a rollback.
func TestSnapshotsDisabledRecordNothing(t *testing.T) {
	f := newFixture(t)
	f.h.settings.Snapshots.Enabled = false
	ctx := context.Background()
	sid, turnID := f.session(t, "Fix the bug")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug"})
	if got := f.m.TurnSnapshots(ctx, sid); len(got) != 0 || len(f.h.turnSnaps) != 0 {
		t.Fatalf("recorded %+v, told %+v", got, f.h.turnSnaps)
	}
	if made, err := f.m.SnapshotNow(ctx, sid, ""); err != nil || len(made) != 0 {
		t.Fatalf("%v %+v", err, made)
	}
	if _, err := f.m.RestoreTurn(ctx, sid, turnID, false); !errors.Is(err, ErrNoTurnSnapshot) {
		t.Fatalf("want ErrNoTurnSnapshot, got %v", err)
	}
}

// TurnChanges diffs each root's before-turn snapshot with the tree, for
// the memory reminder; a turn without a record has none.
func TestTurnChangesPerRoot(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, turnID := f.session(t, "Fix the bug")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug"})
	write(t, f.plain, "b.txt", "b2\n")
	got := map[string]string{}
	for _, tc := range f.m.TurnChanges(ctx, sid, turnID) {
		cs, err := tc.Diff(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got[tc.Root] = changes(cs)
	}
	if len(got) != 2 || got[f.repo] != "" || got[f.plain] != "b.txt modified" {
		t.Fatalf("changes %+v", got)
	}
	if none := f.m.TurnChanges(ctx, sid, "other"); len(none) != 0 {
		t.Fatalf("an unrecorded turn has changes: %+v", none)
	}
}

// Deleting a session deletes its snapshots in every root, and only its.
func TestDeleteSessionDeletesItsSnapshots(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	keep, _ := f.session(t, "keep")
	gone, _ := f.session(t, "gone")
	if _, err := f.m.SnapshotNow(ctx, keep, "first"); err != nil {
		t.Fatal(err)
	}
	write(t, f.repo, "a.txt", "a2\n")
	write(t, f.plain, "b.txt", "b2\n")
	if made, err := f.m.SnapshotNow(ctx, gone, "second"); err != nil || len(made) != 2 {
		t.Fatalf("%v %+v", err, made)
	}
	f.m.DeleteSession(gone)
	if list, _, _ := f.m.Snapshots(gone); len(list) != 0 {
		t.Fatalf("the deleted session's snapshots remain: %+v", list)
	}
	if list, _, _ := f.m.Snapshots(keep); len(list) != 2 {
		t.Fatalf("another session's snapshots were touched: %+v", list)
	}
}
