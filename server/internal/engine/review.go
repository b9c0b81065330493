package engine

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/review"
	"github.com/govibe/govibe/server/internal/store"
)

// Settings prefixes of the three reviewers.
const (
	planReviewSettings  = "todolistReview"
	editReviewSettings  = "editReview"
	shellReviewSettings = "shellCommandReview"
)

// reviewSettings is one reviewer's configuration.
type reviewSettings struct {
	enabled  bool
	timeout  time.Duration
	attempts int
	model    string
}

func (e *Engine) reviewSettings(prefix string) reviewSettings {
	cs := e.cfg()
	var rs reviewSettings
	switch prefix {
	case planReviewSettings:
		r := cs.TodolistReview
		rs = reviewSettings{enabled: r.Enabled, timeout: ms(r.TimeoutMs), attempts: r.MaxAttempts, model: r.Model}
	case editReviewSettings:
		r := cs.EditReview
		rs = reviewSettings{enabled: r.Enabled, timeout: ms(r.TimeoutMs), model: r.Model}
	case shellReviewSettings:
		r := cs.ShellCommandReview
		rs = reviewSettings{enabled: r.Enabled, timeout: ms(r.TimeoutMs), attempts: r.MaxAttempts, model: r.Model}
	}
	rs.model = strings.TrimSpace(rs.model)
	if rs.attempts < 1 {
		rs.attempts = 1
	}
	return rs
}

// reviewRunner builds the reviewer's client: the session's profile, or
// the profile named by <prefix>.model, so a cheaper or stronger model can
// review.
func (e *Engine) reviewRunner(sid string, rs reviewSettings) (*review.Runner, string, error) {
	e.mu.Lock()
	v, keys := e.settings, e.apiKeys
	e.mu.Unlock()
	// The per-review setting wins; then the reviewer role; then main, the
	// session's model (its /model or picker choice).
	p := e.sessionProfile(context.Background(), sid)
	if m := firstNonEmpty(rs.model, roleModel(v, RoleReviewer)); m != "" {
		p = resolveProfile(v.Merge(config.Values{"model": m}), keys)
	}
	c, err := e.client(p)
	if err != nil {
		return nil, p.Model, err
	}
	return &review.Runner{Client: c, Timeout: rs.timeout, SessionID: sid}, p.Model, nil
}

// reviewTarget says where a review belongs in the UI.
type reviewTarget struct {
	sessionID, turnID, messageID string
	// title names the hidden reviewer session ("edit a.go").
	title string
}

// turnTarget finds the running turn of a session, for reviews requested
// from outside a turn's approver (ReviewPlan).
func (e *Engine) turnTarget(sid, title string) reviewTarget {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt := reviewTarget{sessionID: sid, title: title}
	if t := e.running[sid]; t != nil {
		rt.turnID = t.id
		if t.writer != nil {
			rt.messageID = t.writer.MessageID()
		}
	}
	return rt
}

func (a *approver) target(title string) reviewTarget {
	rt := reviewTarget{sessionID: a.t.sessionID, turnID: a.t.id, title: title}
	if a.t.writer != nil {
		rt.messageID = a.t.writer.MessageID()
	}
	return rt
}

// runReview asks one reviewer, stores its conversation in a hidden child
// session, publishes its card and returns it. The card is never an
// approval unless the reviewer approved: failures come back Unavailable.
func (e *Engine) runReview(ctx context.Context, rt reviewTarget, prefix string, kind review.Kind, prompt string) *ReviewCard {
	rs := e.reviewSettings(prefix)
	r, model, err := e.reviewRunner(rt.sessionID, rs)
	var out review.Outcome
	if err != nil {
		out = review.Outcome{Unavailable: err.Error()}
	} else {
		out = r.Review(ctx, kind, prompt)
	}
	card := cardOf(kind, out)
	e.recordReview(rt, model, out.Transcript, card)
	e.publishReview(rt, card)
	return card
}

func cardOf(kind review.Kind, out review.Outcome) *ReviewCard {
	c := &ReviewCard{Kind: string(kind), DurationMs: out.Duration.Milliseconds()}
	if out.Unavailable != "" {
		c.Unavailable = out.Unavailable
		return c
	}
	c.Approved, c.Suggestion = out.Verdict.Approved, out.Verdict.Suggestion
	c.Problems = toProblems(out.Verdict.Problems)
	return c
}

func toProblems(ps []review.Problem) []ReviewProblem {
	var out []ReviewProblem
	for _, p := range ps {
		out = append(out, ReviewProblem{Severity: p.Severity, Message: p.Message, Location: p.Location})
	}
	return out
}

func fromProblems(ps []ReviewProblem) []review.Problem {
	var out []review.Problem
	for _, p := range ps {
		out = append(out, review.Problem{Severity: p.Severity, Message: p.Message, Location: p.Location})
	}
	return out
}

// Feedback renders a rejected card for the model.
func (c *ReviewCard) Feedback() string {
	if c == nil {
		return ""
	}
	if c.Unavailable != "" {
		return "review unavailable: " + c.Unavailable
	}
	s := review.Format(fromProblems(c.Problems))
	if c.Suggestion != "" {
		s += "\nSuggestion: " + c.Suggestion
	}
	return s
}

func (e *Engine) publishReview(rt reviewTarget, card *ReviewCard) {
	e.Bus.Publish(Event{SessionID: rt.sessionID, TurnID: rt.turnID, MessageID: rt.messageID, Kind: KindReview, Payload: card})
}

// recordReview stores a reviewer's conversation in a hidden child session
// of the one it reviewed for: inspectable later, never part of the main
// context. Failures are logged, not fatal: the verdict already stands.
func (e *Engine) recordReview(rt reviewTarget, model string, transcript []llm.Message, card *ReviewCard) {
	if len(transcript) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	warn := func(err error) {
		if err != nil {
			e.log.Warn("recording a review", zap.String("session", rt.sessionID), zap.Error(err))
		}
	}
	s, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: rt.sessionID, Kind: store.KindReviewer, Hidden: true,
		Title: "Review: " + rt.title, Model: model})
	if err != nil {
		warn(err)
		return
	}
	for _, m := range transcript[1:] { // the system prompt is the reviewer's, not the conversation's
		role := store.RoleUser
		if m.Role == llm.RoleAssistant {
			role = store.RoleAssistant
		}
		_, err := e.Store.AppendMessage(ctx, s.ID, store.NewMessage{Role: role, HiddenFromLLM: true, Parts: []store.Part{{Kind: store.PartText, Text: m.Content}}})
		warn(err)
	}
	_, err = e.Store.AppendLLMMessages(ctx, s.ID, "", transcript...)
	warn(err)
	if card.Unavailable != "" {
		_, err = e.Store.AppendMessage(ctx, s.ID, store.NewMessage{Role: store.RoleEvent, Parts: []store.Part{{Kind: store.PartNotice,
			Notice: &store.Notice{Level: store.NoticeWarn, Text: "review unavailable: " + card.Unavailable}}}})
		warn(err)
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
