package rollback

import (
	"context"
	"sort"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/memory"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// The session-state entry sessionstate.TurnSnapshots holds, per turn id,
// the snapshot of each root that holds the workspace as it was before the
// turn. The snapshot itself may be older than the turn (an unchanged tree
// is not snapshotted twice), so the turn → snapshot link is recorded there
// rather than derived from the snapshots' own metadata.

// TurnSnapshot is the snapshot of one root taken before a turn.
type TurnSnapshot = sessionstate.TurnSnapshot

// Turn names the turn a before-turn snapshot is taken for.
type Turn struct {
	SessionID string
	// ID is the turn's id, which is its user message's id.
	ID     string
	Number int
	// Text is the turn's message, the snapshots' description.
	Text string
}

// RecordBeforeTurn snapshots every root before a turn's first mutation,
// records which snapshot each root's "before" state is in, and tells the
// client so the user message can offer "Roll back to before this turn".
//
// A turn resumed after a restart, or a plan step of it, keeps the record
// made before its first mutation: a later one would hold its own changes.
// A record missing a root is never written, since restoring it would
// leave that root as it is.
func (m *Manager) RecordBeforeTurn(ctx context.Context, t Turn) {
	m.turnMu.Lock()
	defer m.turnMu.Unlock()
	all := m.readTurnSnapshots(ctx, t.SessionID)
	if _, done := all[t.ID]; done {
		return
	}
	taken, err := m.TakeAll(ctx, snapshot.Meta{SessionID: t.SessionID, Turn: t.Number, TurnID: t.ID,
		Message: t.Text, Reason: snapshot.ReasonBeforeTurn})
	if err != nil {
		m.log.Warn("snapshot before turn", zap.Error(err))
		return
	}
	if len(taken) == 0 {
		return
	}
	refs := make([]TurnSnapshot, 0, len(taken))
	for _, s := range taken {
		refs = append(refs, TurnSnapshot{Root: s.Root, ID: s.ID})
	}
	all[t.ID] = refs
	if err := sessionstate.Set(ctx, m.store, t.SessionID, sessionstate.TurnSnapshots, all); err != nil {
		m.log.Warn("recording the snapshot before a turn", zap.Error(err))
		return
	}
	m.host.PublishTurnSnapshots(t.SessionID, t.ID, refs)
}

func (m *Manager) readTurnSnapshots(ctx context.Context, sid string) map[string][]TurnSnapshot {
	all := sessionstate.Lookup(ctx, m.store, sid, sessionstate.TurnSnapshots)
	if all == nil {
		all = map[string][]TurnSnapshot{}
	}
	return all
}

// TurnSnapshots maps each turn of a session (by id, which is its user
// message's id) to the snapshots holding the workspace as it was before
// it. A turn with a snapshot pruned since is left out: restoring only the
// other roots would not give the workspace as it was.
func (m *Manager) TurnSnapshots(ctx context.Context, sid string) map[string][]TurnSnapshot {
	all := m.readTurnSnapshots(ctx, sid)
	for turnID, refs := range all {
		if len(refs) == 0 || !m.snapsExist(refs) {
			delete(all, turnID)
			continue
		}
		sort.Slice(refs, func(i, j int) bool { return refs[i].Root < refs[j].Root })
	}
	return all
}

// Offered is TurnSnapshots less the turns already rolled back from the
// chat: what a user message offers to roll back (session/load). A turn
// rolled back does not offer it again after a reload; the Snapshots view
// still lists its snapshot.
func (m *Manager) Offered(ctx context.Context, sid string) map[string][]TurnSnapshot {
	all := m.TurnSnapshots(ctx, sid)
	for turnID := range sessionstate.Lookup(ctx, m.store, sid, sessionstate.RolledBackTurns) {
		delete(all, turnID)
	}
	return all
}

// markRolledBack records that turn turnID was rolled back and tells the
// client, so its user message stops offering it, now and after a reload.
func (m *Manager) markRolledBack(ctx context.Context, sid, turnID string) {
	if sid == "" {
		return
	}
	m.turnMu.Lock()
	done := sessionstate.Lookup(ctx, m.store, sid, sessionstate.RolledBackTurns)
	if done == nil {
		done = map[string]bool{}
	}
	done[turnID] = true
	err := sessionstate.Set(ctx, m.store, sid, sessionstate.RolledBackTurns, done)
	m.turnMu.Unlock()
	if err != nil {
		m.log.Warn("recording a rolled-back turn", zap.Error(err))
	}
	m.host.PublishTurnRolledBack(sid, turnID)
}

func (m *Manager) snapsExist(refs []TurnSnapshot) bool {
	for _, r := range refs {
		if _, _, err := m.find(r.ID); err != nil {
			return false
		}
	}
	return true
}

// TurnChanges is what turn turnID of session sid changed, root by root (its
// before-snapshots diffed lazily with the tree), for the memory reminder.
func (m *Manager) TurnChanges(ctx context.Context, sid, turnID string) []memory.TurnChanges {
	var out []memory.TurnChanges
	for _, ref := range m.readTurnSnapshots(ctx, sid)[turnID] {
		id := ref.ID
		out = append(out, memory.TurnChanges{Root: ref.Root, Diff: func(ctx context.Context) ([]snapshot.Change, error) {
			return m.SnapshotDiff(ctx, id)
		}})
	}
	return out
}
