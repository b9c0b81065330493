package reviewers

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Host is what the reviewers need from the engine.
type Host interface {
	// Settings are the effective settings.
	Settings() config.Settings
	// Client is the model client of a review for session sid: model
	// names the profile (the review's own setting; "" means the reviewer
	// role's, else the session's model). It returns the model the profile
	// resolved to.
	Client(sid, model string) (llm.Client, string, error)
	// PublishReview shows a verdict card on the target's turn.
	PublishReview(t Target, card *Card)
	// Notice shows a notice (already in the user's language) on the
	// target's turn.
	Notice(t Target, text string)
	// Tr translates a message for the user.
	Tr(msg string, args ...any) string
	// Denied reports whether a permission rule denies the command (an
	// editor's rewrite must not get around a deny rule).
	Denied(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool
}

// Store is the store access the reviewers need. *store.Store implements it.
type Store interface {
	sessionstate.KV
	CreateSession(ctx context.Context, ns store.NewSession) (store.Session, error)
	AppendMessage(ctx context.Context, sessionID string, nm store.NewMessage) (store.Message, error)
	AppendLLMMessages(ctx context.Context, sessionID, sourceMessageID string, msgs ...llm.Message) (int, error)
	LLMMessages(ctx context.Context, sessionID string) ([]llm.Message, error)
	LoadMessages(ctx context.Context, sessionID string, beforeSeq int64, limit int) (store.MessagePage, error)
}

// Options are fixed for an engine's life.
type Options struct {
	// Roots are the workspace roots (the edit checks and shell analysis).
	Roots []string
	// OS and Shell describe the host to the shell reviewers.
	OS, Shell string
}

// Reviewers runs one engine's reviews. Safe for concurrent use: it holds
// no mutable state; the plan reviewer's state is the session's.
type Reviewers struct {
	host  Host
	store Store
	opts  Options
	log   *zap.Logger
}

// New returns the reviewers of one engine.
func New(h Host, s Store, o Options, log *zap.Logger) *Reviewers {
	if log == nil {
		log = zap.NewNop()
	}
	return &Reviewers{host: h, store: s, opts: o, log: log}
}

// Target says where a review belongs in the UI.
type Target struct {
	SessionID, TurnID, MessageID string
	// Title names the hidden reviewer session ("edit a.go").
	Title string
}

// Settings is one reviewer's configuration.
type Settings struct {
	Enabled  bool
	Timeout  time.Duration
	Attempts int // at least 1
	Model    string
}

// SettingsOf returns the configuration of the plan, edit or shell
// (security) reviewer; the shell editor shares the shell reviewer's.
func (r *Reviewers) SettingsOf(k review.Kind) Settings {
	cs := r.host.Settings()
	var rs Settings
	switch k {
	case review.KindPlan:
		c := cs.TodolistReview
		rs = Settings{Enabled: c.Enabled, Timeout: ms(c.TimeoutMs), Attempts: c.MaxAttempts, Model: c.Model}
	case review.KindEdit:
		c := cs.EditReview
		rs = Settings{Enabled: c.Enabled, Timeout: ms(c.TimeoutMs), Model: c.Model}
	case review.KindShell, review.KindShellEditor:
		c := cs.ShellCommandReview
		rs = Settings{Enabled: c.Enabled, Timeout: ms(c.TimeoutMs), Attempts: c.MaxAttempts, Model: c.Model}
	}
	rs.Model = strings.TrimSpace(rs.Model)
	if rs.Attempts < 1 {
		rs.Attempts = 1
	}
	return rs
}

// Enabled reports whether the reviewer of kind k is on.
func (r *Reviewers) Enabled(k review.Kind) bool { return r.SettingsOf(k).Enabled }

// runner builds the reviewer's client: the session's profile, or the
// profile named by the review's model setting, so a cheaper or stronger
// model can review.
func (r *Reviewers) runner(sid string, rs Settings) (*review.Runner, string, error) {
	c, model, err := r.host.Client(sid, rs.Model)
	if err != nil {
		return nil, model, err
	}
	return &review.Runner{Client: c, Timeout: rs.Timeout, SessionID: sid}, model, nil
}

// Run asks one reviewer, stores its conversation in a hidden child
// session, publishes its card and returns it. The card is never an
// approval unless the reviewer approved: failures come back Unavailable.
func (r *Reviewers) Run(ctx context.Context, t Target, kind review.Kind, prompt string) *Card {
	rs := r.SettingsOf(kind)
	run, model, err := r.runner(t.SessionID, rs)
	var out review.Outcome
	if err != nil {
		out = review.Outcome{Unavailable: err.Error()}
	} else {
		out = run.Review(ctx, kind, prompt)
	}
	card := cardOf(kind, out)
	r.record(t, model, out.Transcript, card)
	r.host.PublishReview(t, card)
	return card
}

// record stores a reviewer's conversation in a hidden child session of
// the one it reviewed for: inspectable later, never part of the main
// context. Failures are logged, not fatal: the verdict already stands.
func (r *Reviewers) record(t Target, model string, transcript []llm.Message, card *Card) {
	if len(transcript) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	warn := func(err error) {
		if err != nil {
			r.log.Warn("recording a review", zap.String("session", t.SessionID), zap.Error(err))
		}
	}
	s, err := r.store.CreateSession(ctx, store.NewSession{ParentID: t.SessionID, Kind: store.KindReviewer, Hidden: true,
		Title: "Review: " + t.Title, Model: model})
	if err != nil {
		warn(err)
		return
	}
	for _, m := range transcript[1:] { // the system prompt is the reviewer's, not the conversation's
		role := store.RoleUser
		if m.Role == llm.RoleAssistant {
			role = store.RoleAssistant
		}
		_, err := r.store.AppendMessage(ctx, s.ID, store.NewMessage{Role: role, HiddenFromLLM: true, Parts: []store.Part{{Kind: store.PartText, Text: m.Content}}})
		warn(err)
	}
	_, err = r.store.AppendLLMMessages(ctx, s.ID, "", transcript...)
	warn(err)
	if card.Unavailable != "" {
		_, err = r.store.AppendMessage(ctx, s.ID, store.NewMessage{Role: store.RoleEvent, Parts: []store.Part{{Kind: store.PartNotice,
			Notice: &store.Notice{Level: store.NoticeWarn, Text: "review unavailable: " + card.Unavailable}}}})
		warn(err)
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
