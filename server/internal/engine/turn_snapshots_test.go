package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/snapshot"
)

func twoRootEngine(t *testing.T) (*Engine, string, string) {
	t.Helper()
	ws1, ws2 := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(ws1, "a.txt"), []byte("a1\n"), 0o644)
	os.WriteFile(filepath.Join(ws2, "b.txt"), []byte("b1\n"), 0o644)
	e, err := New(Options{Roots: []string{ws1, ws2}, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, ws1, ws2
}

// The record of a turn's before-snapshots is made once: a plan step or a
// resumed run mutating later must not replace "before the turn" with a
// state that holds the turn's own changes.
func TestBeforeTurnRecordedOncePerRoot(t *testing.T) {
	e, ws1, ws2 := twoRootEngine(t)
	ctx := context.Background()
	s, _ := e.CreateSession(ctx, "")
	tr := &turn{id: "u1", sessionID: s.ID, number: 1, text: "Fix the bug"}
	e.recordBeforeTurn(ctx, tr)
	first := e.TurnSnapshots(ctx, s.ID)["u1"]
	if len(first) != 2 || first[0].Root != min(ws1, ws2) || first[1].Root != max(ws1, ws2) {
		t.Fatalf("want one snapshot per root, sorted by root: %+v", first)
	}
	os.WriteFile(filepath.Join(ws1, "a.txt"), []byte("a2\n"), 0o644)
	e.recordBeforeTurn(ctx, tr)
	if again := e.TurnSnapshots(ctx, s.ID)["u1"]; again[0] != first[0] || again[1] != first[1] {
		t.Fatalf("the record changed: %+v, was %+v", again, first)
	}
	res, err := e.RestoreTurn(ctx, s.ID, "u1", false)
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

// A turn whose snapshot of one root is gone (pruned) is not offered, and
// restoring it changes nothing: the other roots alone would not be "as
// before the turn".
func TestTurnWithAPrunedSnapshotCannotBeRestored(t *testing.T) {
	e, ws1, ws2 := twoRootEngine(t)
	ctx := context.Background()
	s, _ := e.CreateSession(ctx, "")
	taken, err := e.snaps.TakeAll(ctx, snapshot.Meta{SessionID: s.ID, Reason: snapshot.ReasonBeforeTurn})
	if err != nil || len(taken) != 2 {
		t.Fatalf("%v %+v", err, taken)
	}
	refs := []TurnSnapshot{{Root: ws1, ID: taken[0].ID}, {Root: ws2, ID: "0123456789abcdef0123456789abcdef01234567"}}
	if err := sessionstate.Set(ctx, e.Store, s.ID, sessionstate.TurnSnapshots, map[string][]TurnSnapshot{"u1": refs}); err != nil {
		t.Fatal(err)
	}
	if got := e.TurnSnapshots(ctx, s.ID); len(got) != 0 {
		t.Fatalf("a turn missing a root's snapshot is offered: %+v", got)
	}
	os.WriteFile(filepath.Join(ws1, "a.txt"), []byte("a2\n"), 0o644)
	if _, err := e.RestoreTurn(ctx, s.ID, "u1", false); !errors.Is(err, ErrNoTurnSnapshot) {
		t.Fatalf("want ErrNoTurnSnapshot, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws1, "a.txt")); string(b) != "a2\n" {
		t.Fatalf("a.txt changed: %q", b)
	}
}

func TestRestoreNoticeIsWrittenForPeople(t *testing.T) {
	e, _, _ := twoRootEngine(t)
	for _, tc := range []struct {
		lang                   string
		text                   string
		changed, kept, folders int
		want                   string
	}{
		{"en", "Fix the bug", 3, 1, 1, "Restored 3 files to before “Fix the bug”; 1 file of yours kept"},
		{"en", "Fix the bug", 3, 2, 2, "Restored 3 files in 2 folders to before “Fix the bug”; 2 files of yours kept"},
		{"en", "Fix the bug", 1, 0, 1, "Restored 1 file to before “Fix the bug”"},
		{"en", "Fix the bug", 0, 0, 0, "Nothing to restore: the files already match the state before “Fix the bug”"},
		{"en", "", 2, 0, 1, "Restored 2 files from the snapshot"},
		{"zh-cn", "修复", 3, 1, 2, "已将 2 个文件夹中的 3 个文件恢复到“修复”之前；保留了您的 1 个文件"},
	} {
		e.UpdateSettings(config.Values{"language": tc.lang}, nil)
		if got := e.restoreNotice(tc.text, tc.changed, tc.kept, tc.folders); got != tc.want {
			t.Errorf("%s %d/%d/%d: %q, want %q", tc.lang, tc.changed, tc.kept, tc.folders, got, tc.want)
		}
	}
}
