package engine

import (
	"context"
	"errors"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// The controls of a session's turns from outside them: the edit toggle,
// cancelling, and waiting for or asking about the running turn.

// EditEnabled is the session's 🔓/🔒 toggle (default on).
func (e *Engine) EditEnabled(ctx context.Context, sid string) bool {
	on, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.EditEnabled)
	if !ok && !errors.Is(err, sessionstate.ErrCorrupt) {
		return true
	}
	return on
}

// SetEditEnabled flips the toggle.
func (e *Engine) SetEditEnabled(ctx context.Context, sid string, on bool) error {
	return sessionstate.Set(ctx, e.Store, sid, sessionstate.EditEnabled, on)
}

// Cancel stops a session's running turn and waits (briefly) until its
// final state is persisted. Tools, streams and parked confirmations all
// observe the cancelled context.
func (e *Engine) Cancel(sessionID string) {
	e.mu.Lock()
	t := e.running[sessionID]
	var cancel context.CancelFunc
	if t != nil {
		cancel = t.cancel
	}
	e.mu.Unlock()
	if cancel == nil {
		// A run restored after a restart waits on its question without
		// a goroutine; stopping it closes the question.
		_ = e.recovery.Release(sessionID, "the user stopped the turn")
		return
	}
	cancel()
	select {
	case <-t.done:
	case <-time.After(900 * time.Millisecond):
	}
}

// Running reports the running turn of a session.
func (e *Engine) Running(sessionID string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.running[sessionID]; t != nil {
		return t.id
	}
	return ""
}

// shownTurn is the turn a session shows as running: the one running, or
// the one a restart restored parked on its question. The parked run has
// no goroutine until answered, but it is the same turn, unfinished: a
// reloaded view shows it with Stop (Cancel ends it) rather than as idle.
func (e *Engine) shownTurn(sessionID string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.running[sessionID]; t != nil {
		return t.id
	}
	return e.recovery.Shown(sessionID)
}

// Wait blocks until the session's latest turn has ended and persisted, and
// returns its status ("" when the session never ran a turn here).
func (e *Engine) Wait(sessionID string) agent.Status {
	e.mu.Lock()
	t := e.last[sessionID]
	e.mu.Unlock()
	if t == nil {
		return ""
	}
	<-t.done
	return t.status
}

// releaseTurn frees the session's running slot if t still holds it.
func (e *Engine) releaseTurn(t *turn) {
	e.mu.Lock()
	if e.running[t.sessionID] == t {
		delete(e.running, t.sessionID)
	}
	e.mu.Unlock()
}
