package engine

import (
	"context"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/snapshot"
)

// Snapshots lists snapshots (of one session when sid is set), newest first,
// with the store's total size.
func (e *Engine) Snapshots(sid string) ([]SnapshotInfo, int64, error) { return e.snaps.List(sid) }

// SnapshotNow takes an on-demand snapshot.
func (e *Engine) SnapshotNow(ctx context.Context, sid, message string) ([]SnapshotInfo, error) {
	if message == "" {
		message = "manual snapshot"
	}
	return e.snaps.Take(ctx, snapshot.Meta{SessionID: sid, Message: message, Reason: snapshot.ReasonManual})
}

// SnapshotDiff says what restoring id would change.
func (e *Engine) SnapshotDiff(ctx context.Context, id string) ([]snapshot.Change, error) {
	st, _, err := e.snaps.find(id)
	if err != nil {
		return nil, err
	}
	return st.Diff(ctx, id)
}

// SnapshotFile returns one file as it was in a snapshot.
func (e *Engine) SnapshotFile(id, rel string) (content string, exists, binary bool, err error) {
	st, _, err := e.snaps.find(id)
	if err != nil {
		return "", false, false, err
	}
	b, _, ok, err := st.FileAt(id, rel)
	if err != nil || !ok {
		return "", ok, false, err
	}
	if !utf8.Valid(b) {
		return "", true, true, nil
	}
	return string(b), true, false, nil
}

// Restore restores the whole workspace root holding snapshot id. A running
// turn in any session is stopped first: restoring under an agent that is
// writing would interleave both.
func (e *Engine) Restore(ctx context.Context, id string) (snapshot.RestoreResult, error) {
	st, info, err := e.snaps.find(id)
	if err != nil {
		return snapshot.RestoreResult{}, err
	}
	e.cancelAll()
	res, err := st.Restore(ctx, id)
	if err != nil {
		return res, err
	}
	e.reportRestore(ctx, info, st.Root(), res, "")
	return res, nil
}

// RestoreFile restores one file.
func (e *Engine) RestoreFile(ctx context.Context, id, rel string) (snapshot.RestoreResult, error) {
	st, info, err := e.snaps.find(id)
	if err != nil {
		return snapshot.RestoreResult{}, err
	}
	res, err := st.RestoreFile(ctx, id, rel)
	if err != nil {
		return res, err
	}
	e.reportRestore(ctx, info, st.Root(), res, rel)
	return res, nil
}

func (e *Engine) cancelAll() {
	e.mu.Lock()
	var ids []string
	for sid := range e.running {
		ids = append(ids, sid)
	}
	e.mu.Unlock()
	for _, sid := range ids {
		e.Cancel(sid)
	}
}

// reportRestore tells the user, in the snapshot's session, what a restore
// from the Snapshots view did, and the model what changed under it.
func (e *Engine) reportRestore(ctx context.Context, info snapshot.Info, root string, res snapshot.RestoreResult, file string) {
	notice := e.restoreNotice("", len(res.Changed), len(res.Kept), 1)
	if info.Reason == snapshot.ReasonBeforeTurn && info.TurnID != "" {
		notice = e.restoreNotice(e.turnText(ctx, info.TurnID), len(res.Changed), len(res.Kept), 1)
	}
	e.addRestoreNotes(ctx, info.SessionID, notice, snapshotRestoreNote(info, root, file, res))
}
