package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// usageSink overrides a turn sink's per-request usage report: the
// provider's numbers become the context in use, and the usage event
// carries the message's usage so far and the header's usage.Context.
type usageSink struct {
	*turnSink
}

func (s *usageSink) Usage(u llm.Usage) {
	e, sid := s.e, s.t.sessionID
	e.Meter.SetContext(sid, u.PromptTokens+u.CompletionTokens, usage.SourceProvider)
	use := e.ContextUse(context.Background(), sid)
	s.publish(Event{Kind: kinds.Usage, Usage: &UsageInfo{Usage: s.messageUsage(u)}, Payload: eventview.Context(use)})
}

// usage.Context reports the context in use: the provider's count from the
// session's last request when it still describes the model track, else a
// local estimate of the next request. The window is that of the model the
// session's next request uses (a running custom command's model, else its
// /model or picker choice), not the active setting's.
func (e *Engine) ContextUse(ctx context.Context, sid string) usage.Context {
	st := e.Meter.Load(ctx, sid)
	// The window compaction measures against.
	use := usage.Context{UsedTokens: st.ContextTokens, WindowTokens: int64(e.SessionCompaction.Policy(ctx, sid).Window), Source: st.ContextSource, Session: st.Session}
	if sid != "" && sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Model) != "" {
		// The session's own choice, not a running custom command's model.
		sp := e.Profiles.Session(ctx, sid)
		use.Profile = firstNonEmpty(sp.Name, sp.Model)
	}
	if st.ContextSource == "" {
		use.UsedTokens, use.Source = int64(e.EstimateContext(ctx, sid)), usage.SourceEstimate
	}
	return use
}

// EstimateContext is the local token estimate of the session's next
// request: system prompt, tool definitions and model track. It is what
// automatic compaction compares with the threshold. The track's part is a sum of per-message figures the store keeps (each
// message counted once), so opening a long session does not re-estimate
// its whole history.
func (e *Engine) EstimateContext(ctx context.Context, sid string) int {
	est := compact.Default()
	track, err := e.Store.TrackTokens(ctx, sid, est.Message)
	if err != nil {
		return 0
	}
	system, defs := e.SessionCompaction.Prefix(ctx, sid)
	return est.Request(system, defs, nil) + track
}
