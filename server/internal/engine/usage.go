package engine

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// Context sources: the provider's reported usage, or the local estimate
// (before the first request, and after a compaction until the next one).
const (
	SourceProvider = "provider"
	SourceEstimate = "estimate"
)

// SessionUsage is the accumulated usage of every model request a session
// made (turns, sub-agents, reviewers, compactions), with its cost
// (Usage.Cost). A hidden child session's requests count in its own usage
// and in its root's, so a conversation's cost includes its helpers.
type SessionUsage struct {
	llm.Usage
	Requests int `json:"requests"`
}

// TurnUsage is what one turn consumed, compaction requests included.
type TurnUsage struct {
	Turn int `json:"turn"`
	SessionUsage
}

// ContextUse is the chat header's bar: the context the next request will
// carry against the window, plus the session's cost and token breakdown.
type ContextUse struct {
	UsedTokens   int64
	WindowTokens int64
	// Source says where UsedTokens comes from (SourceProvider/SourceEstimate).
	Source  string
	Session SessionUsage
}

type usageState struct {
	Session       SessionUsage `json:"session"`
	ContextTokens int64        `json:"contextTokens"`
	ContextSource string       `json:"contextSource"`
}

func (e *Engine) loadUsage(ctx context.Context, sid string) usageState {
	var st usageState
	if raw, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.Usage); err == nil && ok {
		_ = json.Unmarshal(raw, &st)
	}
	return st
}

// updateUsage applies f to the session's usage state. Read-modify-write is
// serialised per session, so concurrent requests (a background compaction
// during a turn) never lose an update.
func (e *Engine) updateUsage(sid string, f func(*usageState)) {
	mu := e.usageLocks.of(sid)
	mu.Lock()
	defer mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st := e.loadUsage(ctx, sid)
	f(&st)
	b, _ := json.Marshal(st)
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.Usage, b); err != nil {
		e.log.Warn("persisting usage", zap.String("session", sid), zap.Error(err))
	}
}

// meteredClient records every successful request's provider-reported
// usage and cost against the request's session. It is as safe for
// concurrent use as the client it wraps.
type meteredClient struct {
	llm.Client
	e       *Engine
	profile llm.Profile
}

func (m *meteredClient) Stream(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	resp, err := m.Client.Stream(ctx, req, onEvent)
	if err == nil && resp != nil {
		// The cost is fixed now, at the prices of the profile that made
		// the request; everything that sums usage carries it from here.
		resp.Usage.Cost = m.profile.Cost(resp.Usage)
	}
	if err == nil && resp != nil && req.SessionID != "" {
		u := resp.Usage
		record := func(st *usageState) {
			st.Session.Add(u)
			st.Session.Requests++
		}
		m.e.updateUsage(req.SessionID, record)
		if root := m.e.rootSession(req.SessionID); root != req.SessionID {
			m.e.updateUsage(root, record)
		}
	}
	return resp, err
}

// rootSession is the top-level session a (possibly hidden child) session
// belongs to.
func (e *Engine) rootSession(sid string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for depth := 0; depth < 8; depth++ {
		s, err := e.Store.GetSession(ctx, sid)
		if err != nil || s.ParentID == "" {
			return sid
		}
		sid = s.ParentID
	}
	return sid
}

// metered wraps a model client with the accounting.
func (e *Engine) metered(c llm.Client, p llm.Profile) llm.Client {
	if c == nil {
		return nil
	}
	if _, ok := c.(*meteredClient); ok {
		return c
	}
	return &meteredClient{Client: c, e: e, profile: p}
}

// usageSink overrides a turn sink's per-request usage report: the
// provider's numbers become the context in use, and the usage event
// carries the header's ContextUse.
type usageSink struct {
	*turnSink
}

// meterSink wraps the free run's sink; sub-agent sinks keep their own
// usage events (their prompts are not the session's context).
func (e *Engine) meterSink(s *turnSink) *usageSink { return &usageSink{turnSink: s} }

func (s *usageSink) Usage(u llm.Usage) {
	e, sid := s.e, s.t.sessionID
	e.updateUsage(sid, func(st *usageState) {
		st.ContextTokens = u.PromptTokens + u.CompletionTokens
		st.ContextSource = SourceProvider
	})
	use := e.ContextUse(context.Background(), sid)
	s.publish(Event{Kind: KindUsage, Usage: &UsageInfo{Usage: u}, Payload: use})
}

// SessionUsageOf returns a session's accumulated usage.
func (e *Engine) SessionUsageOf(ctx context.Context, sid string) SessionUsage {
	return e.loadUsage(ctx, sid).Session
}

// finishTurnUsage records what the turn consumed (the session's usage
// since before) under its turn number.
func (e *Engine) finishTurnUsage(ctx context.Context, sid string, turn int, before SessionUsage) TurnUsage {
	now := e.loadUsage(ctx, sid).Session
	tu := TurnUsage{Turn: turn, SessionUsage: SessionUsage{
		Usage: llm.Usage{
			PromptTokens:     now.PromptTokens - before.PromptTokens,
			CompletionTokens: now.CompletionTokens - before.CompletionTokens,
			CachedTokens:     now.CachedTokens - before.CachedTokens,
			ReasoningTokens:  now.ReasoningTokens - before.ReasoningTokens,
			Cost:             now.Cost - before.Cost,
		},
		Requests: now.Requests - before.Requests,
	}}
	if turn > 0 {
		b, _ := json.Marshal(tu)
		if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.TurnUsage(turn), b); err != nil {
			e.log.Warn("persisting turn usage", zap.String("session", sid), zap.Error(err))
		}
	}
	return tu
}

// TurnUsageOf returns a finished turn's recorded usage.
func (e *Engine) TurnUsageOf(ctx context.Context, sid string, turn int) (TurnUsage, bool) {
	raw, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.TurnUsage(turn))
	if err != nil || !ok {
		return TurnUsage{}, false
	}
	var tu TurnUsage
	return tu, json.Unmarshal(raw, &tu) == nil
}

// ContextUse reports the context in use: the provider's count from the
// session's last request when it still describes the model track, else a
// local estimate of the next request. The window is that of the model the
// session's next request uses (its /model or picker choice), not the
// active setting's.
func (e *Engine) ContextUse(ctx context.Context, sid string) ContextUse {
	p := e.sessionProfile(ctx, sid)
	st := e.loadUsage(ctx, sid)
	use := ContextUse{UsedTokens: st.ContextTokens, WindowTokens: int64(e.compactPolicy(p).Window), Source: st.ContextSource, Session: st.Session}
	if st.ContextSource == "" {
		use.UsedTokens, use.Source = int64(e.estimateTrack(ctx, sid)), SourceEstimate
	}
	return use
}

// EstimateContext is the local token estimate of the session's next
// request: system prompt, tool definitions and model track. It is what
// automatic compaction compares with the threshold.
func (e *Engine) EstimateContext(ctx context.Context, sid string) int {
	return e.estimateTrack(ctx, sid)
}

// The track's part is a sum of per-message figures the store keeps (each
// message counted once), so opening a long session does not re-estimate
// its whole history.
func (e *Engine) estimateTrack(ctx context.Context, sid string) int {
	est := compact.Default()
	track, err := e.Store.TrackTokens(ctx, sid, est.Message)
	if err != nil {
		return 0
	}
	return est.Request(e.freePrompt(ctx, sid), e.requestToolDefs(ctx, sid, e.turnProfile(ctx, e.liveTurn(sid))), nil) + track
}
