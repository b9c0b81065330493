package engine

import "context"

// OfferedTools names the model and the tools the session's free run
// offers: the same list its requests carry (or, in the text tool-call
// protocol, its system prompt describes), so a headless transcript's init
// line cannot drift from what the model is offered. The session's latest
// turn counts, running or ended: a custom command's model and
// allowedTools hold for the turn it started.
func (e *Engine) OfferedTools(ctx context.Context, sid string) (model string, names []string) {
	e.mu.Lock()
	last := e.last[sid]
	e.mu.Unlock()
	t := limitsOf(sid, last)
	defs := e.toolDefsOf(ctx, t)
	names = make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return e.turnProfile(ctx, t).Model, names
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
	return &turn{sessionID: sid, view: view{limits: t.limits}}
}
