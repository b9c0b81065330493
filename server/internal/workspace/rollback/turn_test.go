package rollback

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// turnFixture records the before-turn snapshots of "Fix the bug", then
// makes the turn's changes in both roots (and an after-turn snapshot, as
// the engine does): in the git repository a.txt modified, new.txt created
// and an ignored build file written; in the plain folder b.txt deleted,
// c.txt created and big.txt grown past the size limit (so a restore must
// keep it: it cannot be brought back).
func turnFixture(t *testing.T) (f *fixture, sid, turnID string) {
	t.Helper()
	f = newFixture(t)
	f.h.settings.Snapshots.MaxFileSizeMB = 1
	write(t, f.plain, "big.txt", "small\n")
	ctx := context.Background()
	sid, turnID = f.session(t, "Fix the bug\nin the parser, please")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Fix the bug\nin the parser, please"})
	write(t, f.repo, "a.txt", "a2\n")
	write(t, f.repo, "new.txt", "new\n")
	write(t, f.repo, "build/out.bin", "ignored\n")
	if err := os.Remove(f.plain + "/b.txt"); err != nil {
		t.Fatal(err)
	}
	write(t, f.plain, "c.txt", "c\n")
	write(t, f.plain, "big.txt", strings.Repeat("x", 3<<19))
	if _, err := f.m.Take(ctx, snapshot.Meta{SessionID: sid, Turn: 1, TurnID: turnID, Message: "Fix the bug", Reason: snapshot.ReasonAfterTurn}); err != nil {
		t.Fatal(err)
	}
	return f, sid, turnID
}

func changes(cs []snapshot.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path+" "+string(c.Kind))
	}
	return strings.Join(out, ", ")
}

// byRoot keys a restore's roots by the fixture's names for them.
func (f *fixture) byRoot(t *testing.T, r TurnRestore) map[string]RootRestore {
	t.Helper()
	out := map[string]RootRestore{}
	for _, x := range r.Roots {
		switch x.Root {
		case f.repo:
			out["repo"] = x
		case f.plain:
			out["plain"] = x
		default:
			t.Fatalf("unknown root %s", x.Root)
		}
	}
	if len(out) != 2 {
		t.Fatalf("want both roots: %+v", r.Roots)
	}
	return out
}

// Rolling a turn back in a workspace of two folders (a git repository and
// a plain folder): the dry run says what would change and touches nothing;
// the restore stops running turns, takes a safety snapshot of every root
// first, brings both back, leaves ignored and unsnapshottable files and
// the user's git repository alone, and tells the user and the model.
func TestRestoreTurnAcrossTwoRoots(t *testing.T) {
	f, sid, turnID := turnFixture(t)
	ctx := context.Background()
	headBefore := git(t, f.repo, "rev-parse", "HEAD")

	dry, err := f.m.RestoreTurn(ctx, sid, turnID, true)
	if err != nil {
		t.Fatal(err)
	}
	roots := f.byRoot(t, dry)
	if got := changes(roots["repo"].Changed); got != "a.txt modified, new.txt deleted" {
		t.Errorf("dry run, repo: %s", got)
	}
	if got := changes(roots["plain"].Changed); got != "b.txt recreated, c.txt deleted" {
		t.Errorf("dry run, plain: %s", got)
	}
	if got := changes(roots["plain"].Kept); got != "big.txt kept" {
		t.Errorf("dry run, plain kept: %s", got)
	}
	if dry.Notice != "" || roots["repo"].UndoID != "" || f.h.cancelled != 0 || len(f.h.notices) != 0 {
		t.Fatalf("a dry run acted: %+v, host %+v", dry, f.h)
	}
	if read(t, f.repo, "a.txt") != "a2\n" || read(t, f.plain, "c.txt") != "c\n" {
		t.Fatal("a dry run changed files")
	}

	res, err := f.m.RestoreTurn(ctx, sid, turnID, false)
	if err != nil {
		t.Fatal(err)
	}
	if f.h.cancelled != 1 {
		t.Errorf("running turns stopped %d times, want once", f.h.cancelled)
	}
	for rel, want := range map[string]string{"a.txt": "a1\n", "new.txt": "<missing>", "build/out.bin": "ignored\n"} {
		if got := read(t, f.repo, rel); got != want {
			t.Errorf("repo %s = %q, want %q", rel, got, want)
		}
	}
	for rel, want := range map[string]string{"b.txt": "b1\n", "c.txt": "<missing>"} {
		if got := read(t, f.plain, rel); got != want {
			t.Errorf("plain %s = %q, want %q", rel, got, want)
		}
	}
	if got := len(read(t, f.plain, "big.txt")); got != 3<<19 {
		t.Errorf("the file too large to snapshot was touched: %d bytes", got)
	}
	if got := git(t, f.repo, "status", "--porcelain"); got != "" {
		t.Errorf("the repository is not as it was: %q", got)
	}
	if got := git(t, f.repo, "rev-parse", "HEAD"); got != headBefore {
		t.Errorf("HEAD moved: %s, was %s", got, headBefore)
	}
	roots = f.byRoot(t, res)
	if changes(roots["repo"].Changed) != "a.txt modified, new.txt deleted" || changes(roots["plain"].Changed) != "b.txt recreated, c.txt deleted" ||
		changes(roots["plain"].Kept) != "big.txt kept" {
		t.Errorf("the result does not say what was done: %+v", res.Roots)
	}

	const notice = "Restored 4 files in 2 folders to before “Fix the bug”; 1 file of yours kept"
	if res.Notice != notice {
		t.Errorf("notice %q", res.Notice)
	}
	stored := f.chatNotices(t, sid)
	if len(stored) != 1 || stored[0].Parts[0].Notice.Text != notice {
		t.Fatalf("the chat holds %+v", stored)
	}
	if len(f.h.notices) != 1 || f.h.notices[0] != (published{sid: sid, msgID: stored[0].ID, text: notice}) {
		t.Errorf("published %+v", f.h.notices)
	}
	if len(f.h.forgot) != 1 || f.h.forgot[0] != sid {
		t.Errorf("the model's reads were not forgotten: %v", f.h.forgot)
	}
	perRoot := map[string]string{
		f.repo:  "\nIn " + f.repo + ":\n- a.txt modified\n- new.txt deleted",
		f.plain: "\nIn " + f.plain + ":\n- b.txt recreated\n- c.txt deleted\n- big.txt kept as the user has it",
	}
	sorted := []string{f.repo, f.plain}
	sort.Strings(sorted)
	want := "<context>\nThe user rolled the workspace back to how it was before their message \"Fix the bug\"." +
		perRoot[sorted[0]] + perRoot[sorted[1]] +
		"\n Whatever you changed from that message on is undone; re-read files before editing them.\n</context>"
	if notes := f.modelNotes(t, sid); len(notes) != 1 || notes[0] != want {
		t.Errorf("model track %q\nwant %q", notes, want)
	}
	// The dry run offered nothing of this; the rollback itself tells the
	// chat, and the turn is no longer offered after a reload (its snapshot
	// stays, for the Snapshots view).
	if len(f.h.rolledBack) != 1 || f.h.rolledBack[0] != sid+"/"+turnID {
		t.Errorf("the client was not told the turn was rolled back: %v", f.h.rolledBack)
	}
	if _, ok := f.m.Offered(ctx, sid)[turnID]; ok {
		t.Error("a rolled-back turn is still offered for rollback")
	}
	if _, ok := f.m.TurnSnapshots(ctx, sid)[turnID]; !ok {
		t.Error("the rolled-back turn's snapshot record is gone")
	}
}

// The safety snapshot holds each root as it was just before the rollback
// (the user's edits since the turn included), is named after the turn, and
// restoring it undoes the rollback. A root unchanged since its latest
// snapshot is not snapshotted twice: that snapshot is its undo.
func TestRestoreTurnSafetySnapshotUndoesIt(t *testing.T) {
	f, sid, turnID := turnFixture(t)
	ctx := context.Background()
	afterTurn, _, err := f.m.Snapshots(sid)
	if err != nil {
		t.Fatal(err)
	}
	latest := map[string]string{}
	for _, s := range afterTurn {
		if _, ok := latest[s.Root]; !ok {
			latest[s.Root] = s.ID
		}
	}
	write(t, f.repo, "a.txt", "a3, the user's edit after the turn\n")
	res, err := f.m.RestoreTurn(ctx, sid, turnID, false)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, f.repo, "a.txt") != "a1\n" {
		t.Fatal("not restored")
	}
	list, _, err := f.m.Snapshots(sid)
	if err != nil {
		t.Fatal(err)
	}
	roots := f.byRoot(t, res)
	var safety *SnapshotInfo
	for i := range list {
		if list[i].ID == roots["repo"].UndoID {
			safety = &list[i]
		}
	}
	if safety == nil || safety.Root != f.repo || safety.Reason != snapshot.ReasonSafety || safety.TurnID != turnID ||
		safety.Turn != 1 || safety.Message != "Fix the bug" {
		t.Fatalf("repo: safety snapshot %+v", safety)
	}
	if got := roots["plain"].UndoID; got != latest[f.plain] {
		t.Fatalf("plain: undo %s, want its after-turn snapshot %s", got, latest[f.plain])
	}
	for _, r := range res.Roots {
		if _, err := f.m.Restore(ctx, r.UndoID); err != nil {
			t.Fatal(err)
		}
	}
	for root, files := range map[string]map[string]string{
		f.repo:  {"a.txt": "a3, the user's edit after the turn\n", "new.txt": "new\n"},
		f.plain: {"b.txt": "<missing>", "c.txt": "c\n"},
	} {
		for rel, want := range files {
			if got := read(t, root, rel); got != want {
				t.Errorf("after undoing, %s/%s = %q, want %q", root, rel, got, want)
			}
		}
	}
}

// When one root cannot be snapshotted first, no root is restored: the
// rollback is all or nothing up to the point where it can be undone.
func TestRestoreTurnTouchesNothingWithoutASafetySnapshotOfEveryRoot(t *testing.T) {
	f, sid, turnID := turnFixture(t)
	ctx := context.Background()
	sorted := []string{f.repo, f.plain}
	sort.Strings(sorted)
	first, last := sorted[0], sorted[1]
	changedFirst := map[string]string{f.repo: "a.txt", f.plain: "c.txt"}[first]
	before := read(t, first, changedFirst)
	// The last root's safety snapshot fails: its folder is gone.
	moved := last + ".moved"
	if err := os.Rename(last, moved); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Rename(moved, last) })
	_, err := f.m.RestoreTurn(ctx, sid, turnID, false)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("safety snapshot of %s before restoring", last)) {
		t.Fatalf("want the safety snapshot's failure, got %v", err)
	}
	if got := read(t, first, changedFirst); got != before {
		t.Fatalf("%s was restored before every root was snapshotted: %q", first, got)
	}
	if len(f.h.notices) != 0 || len(f.modelNotes(t, sid)) != 0 {
		t.Fatalf("a failed rollback told the user or the model: %+v", f.h.notices)
	}
	// Once the folder is back, the rollback works.
	if err := os.Rename(moved, last); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.RestoreTurn(ctx, sid, turnID, false); err != nil {
		t.Fatal(err)
	}
	if read(t, f.repo, "a.txt") != "a1\n" || read(t, f.plain, "b.txt") != "b1\n" {
		t.Fatal("not restored")
	}
}

// A cleared transcript no longer has the turn's message; the notice and
// the note name it from the snapshot taken for the turn.
func TestRestoreTurnNamesAClearedTurnFromItsSnapshot(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, _ := f.session(t, "unrelated")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: "cleared-turn", Number: 3, Text: "Rename the field"})
	write(t, f.repo, "a.txt", "a2\n")
	res, err := f.m.RestoreTurn(ctx, sid, "cleared-turn", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Notice != "Restored 1 file to before “Rename the field”" {
		t.Fatalf("notice %q", res.Notice)
	}
	if notes := f.modelNotes(t, sid); len(notes) != 1 || !strings.Contains(notes[0], `before their message "Rename the field".`) {
		t.Fatalf("model track %q", notes)
	}
}

// Rolling back a turn whose files already match says so, and still tells
// the model (nothing changed under it).
func TestRestoreTurnWithNothingToRestore(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, turnID := f.session(t, "Look around")
	f.m.RecordBeforeTurn(ctx, Turn{SessionID: sid, ID: turnID, Number: 1, Text: "Look around"})
	res, err := f.m.RestoreTurn(ctx, sid, turnID, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Notice != "Nothing to restore: the files already match the state before “Look around”" {
		t.Fatalf("notice %q", res.Notice)
	}
	if notes := f.modelNotes(t, sid); len(notes) != 1 || !strings.Contains(notes[0], " No file differed, so nothing changed.\n") {
		t.Fatalf("model track %q", notes)
	}
}

// Every bad input is refused before anything is stopped or written.
func TestRestoreTurnBadInput(t *testing.T) {
	f, sid, turnID := turnFixture(t)
	ctx := context.Background()
	for _, tc := range []struct{ name, sid, turn string }{
		{"unknown turn", sid, "nope"},
		{"unknown session", "nope", turnID},
		{"empty ids", "", ""},
	} {
		for _, dry := range []bool{true, false} {
			if _, err := f.m.RestoreTurn(ctx, tc.sid, tc.turn, dry); !errors.Is(err, ErrNoTurnSnapshot) {
				t.Errorf("%s (dry %v): want ErrNoTurnSnapshot, got %v", tc.name, dry, err)
			}
		}
	}
	if f.h.cancelled != 0 || len(f.h.notices) != 0 || len(f.modelNotes(t, sid)) != 0 || read(t, f.repo, "a.txt") != "a2\n" {
		t.Fatalf("a refused rollback acted: %+v", f.h)
	}
}
