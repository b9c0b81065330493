package engine

import (
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/rollback"
	"github.com/govibe/govibe/server/internal/store"
)

// Snapshots and rollback (the shadow store per root, the before-turn
// records, restores and what they tell the user and the model) are package
// rollback; the engine is its rollback.Host. The turn takes the snapshots
// (before its first mutation, after it, after each reconcile loop); the
// server calls the rest through Rollback.

func (e *Engine) newRollback() *rollback.Manager {
	return rollback.New(rollbackHost{e}, e.Store, rollback.Options{StateDir: e.opts.StateDir, Roots: e.opts.Roots,
		OnSnapshot: e.opts.OnSnapshot, Log: e.log})
}

// Rollback is the snapshots and restores of the workspace roots.
func (e *Engine) Rollback() *rollback.Manager { return e.snaps }

// rollbackHost adapts the engine to rollback.Host.
type rollbackHost struct{ e *Engine }

func (h rollbackHost) Settings() config.Settings { return h.e.cfg() }

func (h rollbackHost) CancelAll() {
	h.e.mu.Lock()
	var ids []string
	for sid := range h.e.running {
		ids = append(ids, sid)
	}
	h.e.mu.Unlock()
	for _, sid := range ids {
		h.e.Cancel(sid)
	}
}

func (h rollbackHost) PublishNotice(sid string, m store.Message, text string) {
	h.e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, MessageID: m.ID, MessageSeq: m.Seq, Text: text})
}

func (h rollbackHost) PublishTurnSnapshots(sid, turnID string, refs []rollback.TurnSnapshot) {
	h.e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Snapshots, MessageID: turnID, Payload: SnapshotsPayload(refs)})
}

func (h rollbackHost) PublishTurnRolledBack(sid, turnID string) {
	h.e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Snapshots, MessageID: turnID, Status: "rolledBack"})
}

func (h rollbackHost) ForgetReads(sid string) { h.e.tracker(sid).ResetTurn() }

func (h rollbackHost) Tr(msg string, args ...any) string { return h.e.tr(msg, args...) }
