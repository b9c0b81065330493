package rollback

import (
	"context"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// The Snapshots view's operations: a snapshot on demand, what restoring
// one would change, one file as it was, and restoring a whole snapshot or
// one file of it.

// SnapshotNow takes an on-demand snapshot.
func (m *Manager) SnapshotNow(ctx context.Context, sid, message string) ([]SnapshotInfo, error) {
	if message == "" {
		message = "manual snapshot"
	}
	return m.Take(ctx, snapshot.Meta{SessionID: sid, Message: message, Reason: snapshot.ReasonManual})
}

// SnapshotDiff says what restoring id would change.
func (m *Manager) SnapshotDiff(ctx context.Context, id string) ([]snapshot.Change, error) {
	st, _, err := m.find(id)
	if err != nil {
		return nil, err
	}
	return st.Diff(ctx, id)
}

// SnapshotFile returns one file as it was in a snapshot.
func (m *Manager) SnapshotFile(id, rel string) (content string, exists, binary bool, err error) {
	st, _, err := m.find(id)
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
func (m *Manager) Restore(ctx context.Context, id string) (snapshot.RestoreResult, error) {
	st, info, err := m.find(id)
	if err != nil {
		return snapshot.RestoreResult{}, err
	}
	m.host.CancelAll()
	res, err := st.Restore(ctx, id)
	if err != nil {
		return res, err
	}
	m.reportRestore(ctx, info, st.Root(), res, "")
	return res, nil
}

// RestoreFile restores one file.
func (m *Manager) RestoreFile(ctx context.Context, id, rel string) (snapshot.RestoreResult, error) {
	st, info, err := m.find(id)
	if err != nil {
		return snapshot.RestoreResult{}, err
	}
	res, err := st.RestoreFile(ctx, id, rel)
	if err != nil {
		return res, err
	}
	m.reportRestore(ctx, info, st.Root(), res, rel)
	return res, nil
}

// reportRestore tells the user, in the snapshot's session, what a restore
// from the Snapshots view did, and the model what changed under it.
func (m *Manager) reportRestore(ctx context.Context, info snapshot.Info, root string, res snapshot.RestoreResult, file string) {
	notice := m.restoreNotice("", len(res.Changed), len(res.Kept), 1)
	if info.Reason == snapshot.ReasonBeforeTurn && info.TurnID != "" {
		notice = m.restoreNotice(m.turnText(ctx, info.TurnID), len(res.Changed), len(res.Kept), 1)
	}
	m.addRestoreNotes(ctx, info.SessionID, notice, snapshotRestoreNote(info, root, file, res))
}
