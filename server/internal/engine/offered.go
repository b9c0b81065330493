package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/modes/moderun"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/toolpolicy"
	"github.com/govibe/govibe/server/internal/tools"
)

// OfferedTools names the model and the tools the session's free run
// offers: the same list its requests carry (or, in the text tool-call
// protocol, its system prompt describes), each deferred tool after the
// entry that runs it (tools.Offer), so a headless transcript's init line
// cannot drift from what the model may call. The session's latest turn
// counts, running or ended: a custom command's model and allowedTools hold
// for the turn it started.
func (e *Engine) OfferedTools(ctx context.Context, sid string) (model string, names []string) {
	e.mu.Lock()
	last := e.last[sid]
	e.mu.Unlock()
	t := limitsOf(sid, last)
	ts, sit := e.roleTools(ctx, t, scheduler.RoleFree, TagFree, false)
	d := toolpolicy.Decide(sit, ts)
	for _, x := range d.Request(ts) {
		names = append(names, x.Name())
		if x.Name() == tools.DeferredEntryName {
			for _, y := range d.Offered(ts) {
				if d.Deferred[y.Name()] {
					names = append(names, y.Name())
				}
			}
		}
	}
	return e.Profiles.Turn(ctx, t.sessionID, t.limits.Model).Model, names
}

// liveTurn stands for the session's running turn where only its limits
// matter (a compaction's prefix, the context estimate): a custom
// command's model and allowedTools while it runs, the session's own
// otherwise.
func (e *Engine) liveTurn(sid string) *turn {
	e.mu.Lock()
	defer e.mu.Unlock()
	return limitsOf(sid, e.running[sid])
}

// limitsOf copies what the tool list and profile depend on, never the
// fields the turn's goroutine changes.
func limitsOf(sid string, t *turn) *turn {
	if t == nil {
		return &turn{sessionID: sid}
	}
	return &turn{sessionID: sid, view: view{limits: t.limits, mode: t.mode}}
}

// modeOf is turn t's view of the session's mode: the one Send loaded, or,
// for a session with no turn running (a compaction's prefix, the context
// estimate), the mode read now.
func (e *Engine) modeOf(ctx context.Context, t *turn) moderun.Turn {
	if t.mode.Loaded() {
		return t.mode
	}
	return e.Modes.Turn(ctx, t.sessionID)
}
