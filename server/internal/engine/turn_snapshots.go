package engine

import (
	"context"
	"sort"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/memory"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/snapshot"
)

// The session-state entry sessionstate.TurnSnapshots holds, per turn id,
// the snapshot of each root that holds the workspace as it was before the
// turn. The snapshot itself may be older than the turn (an unchanged tree
// is not snapshotted twice), so the turn → snapshot link is recorded there
// rather than derived from the snapshots' own metadata.

// TurnSnapshot is the snapshot of one root taken before a turn.
type TurnSnapshot = sessionstate.TurnSnapshot

// recordBeforeTurn snapshots every root before a turn's first mutation,
// records which snapshot each root's "before" state is in, and tells the
// client so the user message can offer "Roll back to before this turn".
//
// A turn resumed after a restart, or a plan step of it, keeps the record
// made before its first mutation: a later one would hold its own changes.
// A record missing a root is never written, since restoring it would
// leave that root as it is.
func (e *Engine) recordBeforeTurn(ctx context.Context, t *turn) {
	e.snaps.turnMu.Lock()
	defer e.snaps.turnMu.Unlock()
	all := e.readTurnSnapshots(ctx, t.sessionID)
	if _, done := all[t.id]; done {
		return
	}
	taken, err := e.snaps.TakeAll(ctx, snapshot.Meta{SessionID: t.sessionID, Turn: t.number, TurnID: t.id,
		Message: t.text, Reason: snapshot.ReasonBeforeTurn})
	if err != nil {
		e.log.Warn("snapshot before turn", zap.Error(err))
		return
	}
	if len(taken) == 0 {
		return
	}
	refs := make([]TurnSnapshot, 0, len(taken))
	for _, s := range taken {
		refs = append(refs, TurnSnapshot{Root: s.Root, ID: s.ID})
	}
	all[t.id] = refs
	if err := sessionstate.Set(ctx, e.Store, t.sessionID, sessionstate.TurnSnapshots, all); err != nil {
		e.log.Warn("recording the snapshot before a turn", zap.Error(err))
		return
	}
	e.Bus.Publish(Event{SessionID: t.sessionID, TurnID: t.id, Kind: KindSnapshots, MessageID: t.id, Payload: refs})
}

func (e *Engine) readTurnSnapshots(ctx context.Context, sid string) map[string][]TurnSnapshot {
	all := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.TurnSnapshots)
	if all == nil {
		all = map[string][]TurnSnapshot{}
	}
	return all
}

// TurnSnapshots maps each turn of a session (by id, which is its user
// message's id) to the snapshots holding the workspace as it was before
// it. A turn with a snapshot pruned since is left out: restoring only the
// other roots would not give the workspace as it was.
func (e *Engine) TurnSnapshots(ctx context.Context, sid string) map[string][]TurnSnapshot {
	all := e.readTurnSnapshots(ctx, sid)
	for turnID, refs := range all {
		if len(refs) == 0 || !e.snapsExist(refs) {
			delete(all, turnID)
			continue
		}
		sort.Slice(refs, func(i, j int) bool { return refs[i].Root < refs[j].Root })
	}
	return all
}

func (e *Engine) snapsExist(refs []TurnSnapshot) bool {
	for _, r := range refs {
		if _, _, err := e.snaps.find(r.ID); err != nil {
			return false
		}
	}
	return true
}

// turnChanges is what turn t changed, root by root (its before-snapshots
// diffed lazily with the tree), for the memory reminder.
func (e *Engine) turnChanges(ctx context.Context, t *turn) []memory.TurnChanges {
	var out []memory.TurnChanges
	for _, ref := range e.readTurnSnapshots(ctx, t.sessionID)[t.id] {
		id := ref.ID
		out = append(out, memory.TurnChanges{Root: ref.Root, Diff: func(ctx context.Context) ([]snapshot.Change, error) {
			return e.SnapshotDiff(ctx, id)
		}})
	}
	return out
}
