package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// A Retry sends the failed turn's message again, and the new turn takes the
// old one's place: the failed attempt (its user message and the reply that
// ended in the error) leaves the transcript, so the chat holds one copy of
// the message and one outcome, and no stale Retry. The attempt is not
// deleted, only left out of session/load: the model track never held it
// (an unanswered prompt is dropped when its turn fails).

// supersede records that failed turn turnID of session sid was replaced by
// a retry. Only a finished person's message of this session qualifies: a
// running turn, another session's or an engine prompt is left alone.
func (e *Engine) supersede(ctx context.Context, sid, turnID string) {
	m, err := e.Store.GetMessage(ctx, turnID)
	if err != nil || m.SessionID != sid || m.Role != store.RoleUser || m.Origin != store.OriginUser {
		return
	}
	e.mu.Lock()
	if t := e.running[sid]; t != nil && t.id == turnID {
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	done := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.RetriedTurns)
	if done == nil {
		done = map[string]bool{}
	}
	done[turnID] = true
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.RetriedTurns, done); err != nil {
		e.log.Warn("recording a retried turn", zap.String("session", sid), zap.Error(err))
	}
}
