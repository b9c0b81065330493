package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/review/reviewers"
	"github.com/govibe/govibe/server/internal/shellcheck"
)

// reviewHost is the engine as the reviewers see it.
type reviewHost struct{ e *Engine }

func (h reviewHost) Settings() config.Settings { return config.Typed(h.e.Settings()) }

// Client resolves the review's profile.
func (h reviewHost) Client(sid, model string) (llm.Client, string, error) {
	e := h.e
	e.mu.Lock()
	v, keys := e.settings, e.apiKeys
	e.mu.Unlock()
	// The per-review setting wins; then the reviewer role; then main, the
	// session's model (its /model or picker choice).
	p := e.sessionProfile(context.Background(), sid)
	if m := firstNonEmpty(model, roleModel(v, RoleReviewer)); m != "" {
		p = resolveProfile(v.Merge(config.Values{"model": m}), keys)
	}
	c, err := e.client(p)
	return c, p.Model, err
}

func (h reviewHost) PublishReview(t reviewers.Target, card *reviewers.Card) {
	h.e.Bus.Publish(Event{SessionID: t.SessionID, TurnID: t.TurnID, MessageID: t.MessageID, Kind: kinds.Review, Payload: ReviewPayload{Card: card}})
}

func (h reviewHost) Notice(t reviewers.Target, text string) {
	h.e.Bus.Publish(Event{SessionID: t.SessionID, TurnID: t.TurnID, MessageID: t.MessageID, Kind: kinds.Notice, Text: text})
}

func (h reviewHost) Tr(msg string, args ...any) string { return h.e.tr(msg, args...) }

func (h reviewHost) Denied(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool {
	return h.e.approvals.Denies(ws, command, an)
}

// turnTarget finds the running turn of a session, for reviews requested
// from outside a turn's approver (ReviewPlan).
func (e *Engine) turnTarget(sid string) reviewers.Target {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt := reviewers.Target{SessionID: sid}
	if t := e.running[sid]; t != nil {
		rt.TurnID = t.id
		if t.writer != nil {
			rt.MessageID = t.writer.MessageID()
		}
	}
	return rt
}
