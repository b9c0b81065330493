package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// sessionsTurns is what the session catalogue asks of the turn runner
// (sessions.Turns): the turns' state stays the engine's, read through
// these functions.
type sessionsTurns struct {
	bus         *eventbus.Bus[Event, *Event]
	model       func() string
	running     func(sid string) string
	shown       func(sid string) string
	interrupted func(sid string) bool
	settle      func(ctx context.Context, sid string)
	flush       func(ctx context.Context, sid string)
	cancel      func(sid string)
	editEnabled func(ctx context.Context, sid string) bool
	contextUse  func(ctx context.Context, sid string) usage.Context
}

// newSessionsTurns is the session catalogue's view of e's turns.
func newSessionsTurns(e *Engine) sessionsTurns {
	return sessionsTurns{bus: e.Bus, running: e.Running, shown: e.shownTurn, settle: func(ctx context.Context, sid string) { e.recovery.Settle(ctx, sid) },
		cancel: e.Cancel, editEnabled: e.EditEnabled, contextUse: e.ContextUse,
		model:       func() string { return e.Profiles.Active().Model },
		interrupted: func(sid string) bool { return e.recovery.Interrupted(sid) },
		flush: func(ctx context.Context, sid string) {
			e.mu.Lock()
			var w *store.StreamWriter
			if t := e.running[sid]; t != nil {
				w = t.writer
			}
			e.mu.Unlock()
			if w != nil {
				_ = w.Flush(ctx)
			}
		}}
}

func (h sessionsTurns) Model() string                          { return h.model() }
func (h sessionsTurns) Running(sid string) string              { return h.running(sid) }
func (h sessionsTurns) Shown(sid string) string                { return h.shown(sid) }
func (h sessionsTurns) Interrupted(sid string) bool            { return h.interrupted(sid) }
func (h sessionsTurns) Settle(ctx context.Context, sid string) { h.settle(ctx, sid) }
func (h sessionsTurns) Flush(ctx context.Context, sid string)  { h.flush(ctx, sid) }
func (h sessionsTurns) Cancel(sid string)                      { h.cancel(sid) }

func (h sessionsTurns) EditEnabled(ctx context.Context, sid string) bool {
	return h.editEnabled(ctx, sid)
}

// ContextChanged sends the header's context bar now, with the window of
// the model the session's next request uses: after a switch the meter
// must not keep the old model's window until the next turn.
func (h sessionsTurns) ContextChanged(ctx context.Context, sid string) {
	h.bus.Publish(Event{SessionID: sid, Kind: kinds.Usage, Payload: eventview.Context(h.contextUse(ctx, sid))})
}
