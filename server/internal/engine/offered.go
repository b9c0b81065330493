package engine

import "context"

// OfferedTools names the tools the session's free run offers the model:
// the same list its requests carry (or, in the text tool-call protocol,
// its system prompt describes), so a headless transcript's init line
// cannot drift from what the model is offered.
func (e *Engine) OfferedTools(ctx context.Context, sid string) []string {
	defs := e.freeToolDefs(ctx, sid)
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return names
}
