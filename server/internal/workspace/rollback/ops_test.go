package rollback

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// Restoring a before-turn snapshot from the Snapshots view restores its
// root only, stops running turns, names the turn to the user and tells
// the model which folder went back to when.
func TestRestoreSnapshotTellsUserAndModel(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, turnID := f.session(t, "Fix the bug")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug"})
	write(t, f.repo, "a.txt", "a2\n")
	write(t, f.plain, "b.txt", "b2\n")
	var id string
	for _, r := range f.m.TurnSnapshots(ctx, sid)[turnID] {
		if r.Root == f.repo {
			id = r.ID
		}
	}
	_, info, err := f.m.find(id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.m.Restore(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if changes(res.Changed) != "a.txt modified" || res.Before.ID == "" {
		t.Fatalf("result %+v", res)
	}
	if read(t, f.repo, "a.txt") != "a1\n" || read(t, f.plain, "b.txt") != "b2\n" {
		t.Fatal("restored the wrong root")
	}
	if f.h.cancelled != 1 {
		t.Errorf("running turns stopped %d times", f.h.cancelled)
	}
	const notice = "Restored 1 file to before “Fix the bug”"
	if stored := f.chatNotices(t, sid); len(stored) != 1 || stored[0].Parts[0].Notice.Text != notice ||
		len(f.h.notices) != 1 || f.h.notices[0] != (published{sid: sid, msgID: stored[0].ID, text: notice}) {
		t.Fatalf("chat %+v, published %+v", stored, f.h.notices)
	}
	want := "<context>\nThe user restored the workspace folder " + f.repo + " to the snapshot taken " +
		info.Time.Format("2006-01-02 15:04:05") + " (\"Fix the bug\").\n- a.txt modified\nRe-read files before editing them.\n</context>"
	if notes := f.modelNotes(t, sid); len(notes) != 1 || notes[0] != want {
		t.Fatalf("model track %q\nwant %q", notes, want)
	}
	if len(f.h.forgot) != 1 || f.h.forgot[0] != sid {
		t.Fatalf("forgot %v", f.h.forgot)
	}
}

// Restoring one file of a manual snapshot restores that file only and
// names it to the model.
func TestRestoreFileTellsUserAndModel(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, _ := f.session(t, "hello")
	made, err := f.m.SnapshotNow(ctx, sid, "")
	if err != nil || len(made) != 2 || made[0].Message != "manual snapshot" || made[0].Reason != snapshot.ReasonManual {
		t.Fatalf("%v %+v", err, made)
	}
	var id string
	for _, s := range made {
		if s.Root == f.plain {
			id = s.ID
		}
	}
	write(t, f.plain, "b.txt", "b2\n")
	write(t, f.plain, "other.txt", "o\n")
	res, err := f.m.RestoreFile(ctx, id, "b.txt")
	if err != nil {
		t.Fatal(err)
	}
	if changes(res.Changed) != "b.txt modified" || read(t, f.plain, "b.txt") != "b1\n" || read(t, f.plain, "other.txt") != "o\n" {
		t.Fatalf("result %+v", res)
	}
	if stored := f.chatNotices(t, sid); len(stored) != 1 || stored[0].Parts[0].Notice.Text != "Restored 1 file from the snapshot" {
		t.Fatalf("chat %+v", stored)
	}
	notes := f.modelNotes(t, sid)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "<context>\nThe user restored b.txt to the snapshot taken ") ||
		!strings.HasSuffix(notes[0], " (\"manual snapshot\").\n- b.txt modified\nRe-read files before editing them.\n</context>") {
		t.Fatalf("model track %q", notes)
	}
}

// A snapshot that belongs to no session is restored without a notice to
// any session.
func TestRestoreWithoutASessionNotesNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	made, err := f.m.SnapshotNow(ctx, "", "by hand")
	if err != nil || len(made) != 2 {
		t.Fatalf("%v %+v", err, made)
	}
	write(t, f.repo, "a.txt", "a2\n")
	if _, err := f.m.Restore(ctx, made[0].ID); err != nil {
		t.Fatal(err)
	}
	if len(f.h.notices) != 0 || len(f.h.forgot) != 0 {
		t.Fatalf("notes without a session: %+v", f.h)
	}
}

// The Snapshots view's reads: what a restore would change, a file as it
// was (text, binary, absent).
func TestSnapshotDiffAndFile(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	write(t, f.plain, "bin.dat", "\xff\xfe\x00")
	made, err := f.m.SnapshotNow(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, s := range made {
		if s.Root == f.plain {
			id = s.ID
		}
	}
	write(t, f.plain, "b.txt", "b2\n")
	cs, err := f.m.SnapshotDiff(ctx, id)
	if err != nil || changes(cs) != "b.txt modified" {
		t.Fatalf("%v %s", err, changes(cs))
	}
	if c, ok, bin, err := f.m.SnapshotFile(id, "b.txt"); err != nil || !ok || bin || c != "b1\n" {
		t.Fatalf("b.txt: %q %v %v %v", c, ok, bin, err)
	}
	if c, ok, bin, err := f.m.SnapshotFile(id, "bin.dat"); err != nil || !ok || !bin || c != "" {
		t.Fatalf("bin.dat: %q %v %v %v", c, ok, bin, err)
	}
	if _, ok, _, err := f.m.SnapshotFile(id, "none.txt"); err != nil || ok {
		t.Fatalf("none.txt: %v %v", ok, err)
	}
	if list, size, err := f.m.Snapshots(""); err != nil || len(list) != 2 || size <= 0 {
		t.Fatalf("%v %d %+v", err, size, list)
	}
}

// Unknown snapshots and paths are refused before anything is stopped,
// written or noted.
func TestSnapshotOpsBadInput(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, _ := f.session(t, "hello")
	made, err := f.m.SnapshotNow(ctx, sid, "")
	if err != nil {
		t.Fatal(err)
	}
	write(t, f.repo, "a.txt", "a2\n")
	const unknown = `no snapshot "nope"`
	if _, err := f.m.Restore(ctx, "nope"); err == nil || err.Error() != unknown {
		t.Errorf("Restore: %v", err)
	}
	if _, err := f.m.RestoreFile(ctx, "nope", "a.txt"); err == nil || err.Error() != unknown {
		t.Errorf("RestoreFile: %v", err)
	}
	if _, err := f.m.SnapshotDiff(ctx, "nope"); err == nil || err.Error() != unknown {
		t.Errorf("SnapshotDiff: %v", err)
	}
	if _, _, _, err := f.m.SnapshotFile("nope", "a.txt"); err == nil || err.Error() != unknown {
		t.Errorf("SnapshotFile: %v", err)
	}
	if _, err := f.m.RestoreFile(ctx, made[0].ID, "../escape.txt"); err == nil {
		t.Error("a path out of the root was accepted")
	}
	if _, err := f.m.RestoreFile(ctx, made[0].ID, "missing.txt"); !errors.Is(err, snapshot.ErrNotFound) {
		t.Errorf("a path in neither the snapshot nor the workspace: %v", err)
	}
	if f.h.cancelled != 0 || len(f.h.notices) != 0 || len(f.modelNotes(t, sid)) != 0 || read(t, f.repo, "a.txt") != "a2\n" {
		t.Fatalf("a refused restore acted: %+v", f.h)
	}
}
