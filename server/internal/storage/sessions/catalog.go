package sessions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Summary is a session as listed.
type Summary struct {
	store.Session
	Running bool
	// Cost is what every model request of the session cost (its hidden
	// helpers included), at the prices in force when each was made.
	Cost float64
}

// Turns is what the catalogue asks of the turn runner.
type Turns interface {
	// Model is the model a new session records (the main profile's).
	Model() string
	// Running is the session's running turn, "" when idle.
	Running(sid string) string
	// Shown is the turn a session shows as running: the one running, or
	// one a restart restored parked on its question.
	Shown(sid string) string
	// Interrupted says a previous process cut off the session's run.
	Interrupted(sid string) bool
	// Settle settles what a window that is gone left pending in the
	// session.
	Settle(ctx context.Context, sid string)
	// Flush writes the running turn's buffered deltas to the store.
	Flush(ctx context.Context, sid string)
	// Cancel stops the session's run.
	Cancel(sid string)
	// EditEnabled is the session's edit toggle.
	EditEnabled(ctx context.Context, sid string) bool
	// ContextChanged sends the header's context bar now, with the window
	// of the model the session's next request uses.
	ContextChanged(ctx context.Context, sid string)
}

// Bus is the event bus's per-session bookkeeping.
type Bus interface {
	LastSeq(sid string) int64
	Forget(sid string)
}

// Meter is the sessions' cost.
type Meter interface {
	Of(ctx context.Context, sid string) usage.Session
	OfSessions(ctx context.Context, sids []string) (map[string]usage.Session, error)
}

// Dialogs are the questions a session waits on.
type Dialogs interface {
	Pending(sid string) []approval.Confirm
}

// Plans are the sessions' todo plans.
type Plans interface {
	Todo(ctx context.Context, sid string) *scheduler.Plan
}

// Hooks are the lifecycle hooks a session's start and end fire.
type Hooks interface {
	SessionStart(ctx context.Context, sid, source string)
	Fire(ctx context.Context, turnID string, in hooks.Input) hooks.Outcome
}

// Snapshots are the workspace snapshots a session took.
type Snapshots interface {
	DeleteSession(sid string)
}

// Deps are the catalogue's collaborators.
type Deps struct {
	Store     *store.Store
	Turns     Turns
	Bus       Bus
	Meter     Meter
	Dialogs   Dialogs
	Plans     Plans
	Hooks     Hooks
	Snapshots Snapshots
}

// Options configure New.
type Options struct {
	// Roots are the workspace roots whose git state a prompt names.
	Roots []string
	// StateDir holds the transcripts hooks read (transcripts/<sid>.jsonl).
	StateDir string
	// OnSession tells the client a session's row changed; nil ignores it.
	OnSession func(Summary)
}

// Catalog is the session catalogue. It is safe for concurrent use.
type Catalog struct {
	d Deps
	o Options
	// facts are each session's date and git state, fixed when its first
	// prompt is built (facts.go).
	facts sync.Map
}

// New returns the catalogue over d.
func New(d Deps, o Options) *Catalog {
	if o.OnSession == nil {
		o.OnSession = func(Summary) {}
	}
	return &Catalog{d: d, o: o}
}

// Create makes an empty chat session.
func (c *Catalog) Create(ctx context.Context, title string) (Summary, error) {
	s, err := c.d.Store.CreateSession(ctx, store.NewSession{Title: title, Model: c.d.Turns.Model(), Kind: store.KindChat})
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Session: s}
	c.o.OnSession(sum)
	c.d.Hooks.SessionStart(ctx, s.ID, "startup")
	return sum, nil
}

// Changed sends session sid's summary to OnSession.
func (c *Catalog) Changed(ctx context.Context, sid string) {
	c.o.OnSession(c.summary(ctx, sid))
}

func (c *Catalog) summary(ctx context.Context, sid string) Summary {
	s, _ := c.d.Store.GetSession(ctx, sid)
	return Summary{Session: s, Running: c.d.Turns.Running(sid) != "", Cost: c.d.Meter.Of(ctx, sid).Cost}
}

// SetModel makes the session use name (a govibe.models profile or a
// model) from its next request, as /model NAME does: the header's picker
// calls it so a session's earlier /model choice does not outlive the
// user's newer pick. The context bar follows at once: after a switch the
// meter must not keep the old model's window until the next turn.
func (c *Catalog) SetModel(ctx context.Context, sid, name string) error {
	if _, err := c.d.Store.GetSession(ctx, sid); err != nil {
		return err
	}
	if err := sessionstate.Set(ctx, c.d.Store, sid, sessionstate.Model, name); err != nil {
		return err
	}
	c.d.Turns.ContextChanged(ctx, sid)
	return nil
}

// RecordModel keeps the session's model column on model, the one its
// turns use: a switch (the header's picker, /model, a settings change)
// shows in the session list from the turn that first used it.
func (c *Catalog) RecordModel(ctx context.Context, sid, model string) {
	s, err := c.d.Store.GetSession(ctx, sid)
	if err != nil || s.Model == model {
		return
	}
	if err := c.d.Store.SetSessionModel(ctx, sid, model); err == nil {
		c.Changed(ctx, sid)
	}
}

// List lists top-level sessions, newest first.
func (c *Catalog) List(ctx context.Context, limit int) ([]Summary, error) {
	if limit <= 0 {
		limit = 200
	}
	page, err := c.d.Store.ListSessions(ctx, store.ListOptions{Limit: limit})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(page.Sessions))
	for i, s := range page.Sessions {
		ids[i] = s.ID
	}
	// One query for every listed session's cost, not one per session.
	cost, err := c.d.Meter.OfSessions(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(page.Sessions))
	for _, s := range page.Sessions {
		out = append(out, Summary{Session: s, Running: c.d.Turns.Running(s.ID) != "", Cost: cost[s.ID].Cost})
	}
	return out, nil
}

// Rename sets a user title.
func (c *Catalog) Rename(ctx context.Context, sid, title string) error {
	if err := c.d.Store.RenameSession(ctx, sid, strings.TrimSpace(title)); err != nil {
		return err
	}
	c.Changed(ctx, sid)
	return nil
}

// Delete stops the session's run and deletes it.
func (c *Catalog) Delete(ctx context.Context, sid string) error {
	c.d.Turns.Cancel(sid)
	c.d.Hooks.Fire(ctx, "", hooks.Input{SessionID: sid, HookEventName: hooks.SessionEnd, Reason: "deleted"})
	if err := c.d.Store.DeleteSession(ctx, sid); err != nil {
		return err
	}
	c.d.Bus.Forget(sid)
	c.d.Snapshots.DeleteSession(sid)
	// The transcript hooks read goes with the session (turninput/hookinput.go).
	_ = os.Remove(filepath.Join(c.o.StateDir, "transcripts", sid+".jsonl"))
	return nil
}
