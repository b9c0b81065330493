package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/store"
)

// SessionSummary is a session as listed.
type SessionSummary struct {
	store.Session
	Running bool
	// Cost is what every model request of the session cost (its hidden
	// helpers included), at the prices in force when each was made.
	Cost float64
}

// CreateSession makes an empty chat session.
func (e *Engine) CreateSession(ctx context.Context, title string) (SessionSummary, error) {
	s, err := e.Store.CreateSession(ctx, store.NewSession{Title: title, Model: e.Profiles.Active().Model, Kind: store.KindChat})
	if err != nil {
		return SessionSummary{}, err
	}
	sum := SessionSummary{Session: s}
	e.opts.OnSession(sum)
	e.hooks.SessionStart(ctx, s.ID, "startup")
	return sum, nil
}

func (e *Engine) summary(ctx context.Context, sid string) SessionSummary {
	s, _ := e.Store.GetSession(ctx, sid)
	return SessionSummary{Session: s, Running: e.Running(sid) != "", Cost: e.Meter.Of(ctx, sid).Cost}
}

// SetSessionModel makes the session use name (a govibe.models profile or
// a model) from its next request, as /model NAME does: the header's
// picker calls it so a session's earlier /model choice does not outlive
// the user's newer pick.
func (e *Engine) SetSessionModel(ctx context.Context, sid, name string) error {
	if _, err := e.Store.GetSession(ctx, sid); err != nil {
		return err
	}
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.Model, name); err != nil {
		return err
	}
	e.publishContext(ctx, sid)
	return nil
}

// publishContext sends the header's context bar now, with the window of
// the model the session's next request uses: after a switch the meter
// must not keep the old model's window until the next turn.
func (e *Engine) publishContext(ctx context.Context, sid string) {
	e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Usage, Payload: ContextPayload(e.ContextUse(ctx, sid))})
}

// recordSessionModel keeps the session's model column on the model its
// turns use: a switch (the header's picker, /model, a settings change)
// shows in the session list from the turn that first used it.
func (e *Engine) recordSessionModel(ctx context.Context, sid string, p Profile) {
	s, err := e.Store.GetSession(ctx, sid)
	if err != nil || s.Model == p.Model {
		return
	}
	if err := e.Store.SetSessionModel(ctx, sid, p.Model); err == nil {
		e.opts.OnSession(e.summary(ctx, sid))
	}
}

// ListSessions lists top-level sessions, newest first.
func (e *Engine) ListSessions(ctx context.Context, limit int) ([]SessionSummary, error) {
	if limit <= 0 {
		limit = 200
	}
	page, err := e.Store.ListSessions(ctx, store.ListOptions{Limit: limit})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(page.Sessions))
	for i, s := range page.Sessions {
		ids[i] = s.ID
	}
	// One query for every listed session's cost, not one per session.
	usage, err := e.Meter.OfSessions(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]SessionSummary, 0, len(page.Sessions))
	for _, s := range page.Sessions {
		out = append(out, SessionSummary{Session: s, Running: e.Running(s.ID) != "", Cost: usage[s.ID].Cost})
	}
	return out, nil
}

// Loaded is one page of a session plus its live state.
type Loaded struct {
	Session       SessionSummary
	Page          store.MessagePage
	LastSeq       int64
	RunningTurnID string
	Pending       []approval.Confirm
	EditEnabled   bool
	Interrupted   bool
	// Todo is the session's todo plan, nil when it has none.
	Todo *scheduler.Plan
	// SubAgents ran while a message of Page was open (subagent_load.go).
	SubAgents []SubAgentRun
}

// Load returns a page of the UI track, newest first when beforeSeq is 0.
// LastSeq is read before the page so that no live event can fall between
// the page and the events the client applies after it: a client may see
// an event whose effect is already in the page, and dedupes by seq.
func (e *Engine) Load(ctx context.Context, sid string, beforeSeq int64, limit int) (Loaded, error) {
	if limit <= 0 {
		limit = 200
	}
	last := e.Bus.LastSeq(sid)
	s, err := e.Store.GetSession(ctx, sid)
	if err != nil {
		return Loaded{}, err
	}
	if beforeSeq == 0 {
		// Opening the session: what a closed window left pending in it
		// is settled before it is shown (orphans.go).
		e.settleOrphans(ctx, sid)
	}
	// Buffered deltas are not yet on disk: flush them so the page holds
	// all text up to LastSeq.
	e.flushRunning(ctx, sid)
	page, err := e.Store.LoadMessages(ctx, sid, beforeSeq, limit)
	if err != nil {
		return Loaded{}, err
	}
	page.Messages = e.withoutRetried(ctx, sid, page.Messages)
	subs, err := e.subAgentRuns(ctx, sid, page.Messages)
	if err != nil {
		return Loaded{}, err
	}
	e.mu.Lock()
	interrupted := e.interrupted[sid]
	e.mu.Unlock()
	live := e.shownTurn(sid)
	return Loaded{SubAgents: subs,
		Session: SessionSummary{Session: s, Running: live != ""}, Page: page, LastSeq: last,
		RunningTurnID: live, Pending: e.Broker.Pending(sid), EditEnabled: e.EditEnabled(ctx, sid),
		Interrupted: interrupted, Todo: e.Plans.Todo(ctx, sid),
	}, nil
}

func (e *Engine) flushRunning(ctx context.Context, sid string) {
	e.mu.Lock()
	var w *store.StreamWriter
	if t := e.running[sid]; t != nil {
		w = t.writer
	}
	e.mu.Unlock()
	if w != nil {
		_ = w.Flush(ctx)
	}
}

// RenameSession sets a user title.
func (e *Engine) RenameSession(ctx context.Context, sid, title string) error {
	if err := e.Store.RenameSession(ctx, sid, strings.TrimSpace(title)); err != nil {
		return err
	}
	e.opts.OnSession(e.summary(ctx, sid))
	return nil
}

// DeleteSession stops the session's run and deletes it.
func (e *Engine) DeleteSession(ctx context.Context, sid string) error {
	e.Cancel(sid)
	e.hooks.Fire(ctx, "", hooks.Input{SessionID: sid, HookEventName: hooks.SessionEnd, Reason: "deleted"})
	if err := e.Store.DeleteSession(ctx, sid); err != nil {
		return err
	}
	e.Bus.Forget(sid)
	e.Rollback.DeleteSession(sid)
	// The transcript hooks read goes with the session (hooks.go).
	_ = os.Remove(filepath.Join(e.opts.StateDir, "transcripts", sid+".jsonl"))
	return nil
}

func msOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
