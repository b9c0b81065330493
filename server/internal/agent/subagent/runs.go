package subagent

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Runs is the Host the engine wires: each sub-agent's run is a hidden
// child session of its parent's, persisted there and published on the
// parent's turn under the sub-agent's tag. What is the engine's (the
// turn's sink, the open message, the models) comes in through RunsDeps.
type Runs struct {
	d RunsDeps
	// reported remembers the custom-agent problems already shown, so
	// each is reported once per engine, not on every turn.
	mu       sync.Mutex
	reported map[string]bool
}

// RunsDeps is what Runs needs from the engine.
type RunsDeps struct {
	Store *store.Store
	Hooks *hooks.Manager
	// Model is the model a child session records (the active profile's).
	Model func() string
	// OpenMessage is the parent's message open now (its turn's current
	// assistant message), "" when none: a child session records it so a
	// reopened session shows the sub-agent's group where it ran.
	OpenMessage func(parentSID string) string
	// Sink publishes a child's progress on the parent's turn under tag;
	// w is the child's turn and msgID its assistant message.
	Sink func(parentSID, turnID string, w *store.StreamWriter, msgID, tag string) agent.Sink
	// ClosedNote is the parent turn's closed-dialog note (see Child.Notes).
	ClosedNote   func(parentSID, turnID string) string
	AgentModel   func(ctx context.Context, parentSID, name, model string) (Model, error)
	BrowserModel func() (Model, error)
	Settings     func() config.Settings
	// Home, Roots and Trusted locate the custom agents' definitions.
	Home    string
	Roots   []string
	Trusted func() bool
	// StateDir holds the browser agent's screenshots.
	StateDir string
	// Warn shows a problem on session sid (a warn notice).
	Warn func(sid, text string)
	Tr   func(msg string, args ...any) string
	Log  *zap.Logger
}

// NewRuns returns the host over d.
func NewRuns(d RunsDeps) *Runs { return &Runs{d: d, reported: map[string]bool{}} }

// Tools lists investigate and the custom agents for session sid.
// Malformed definitions are reported once per Runs (log and a session
// notice) and skipped.
func (r *Runs) Tools(ctx context.Context, sid string) []tools.Tool {
	known := map[string]bool{}
	for _, t := range tools.Builtin() {
		known[t.Name()] = true
	}
	defs, problems := Load(Dirs(r.d.Home, r.d.Roots, r.d.Trusted()), func(n string) bool { return known[n] })
	for _, p := range problems {
		if r.first(sid + "\x00" + p.Error()) {
			r.d.Log.Warn("custom agent skipped", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
			r.d.Warn(sid, r.d.Tr("Custom agent skipped: %s", p.Error()))
		}
	}
	return Tools(r, defs)
}

func (r *Runs) first(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reported[key] {
		return false
	}
	r.reported[key] = true
	return true
}

// Begin opens the hidden child session and its turn (Host.Begin).
func (r *Runs) Begin(ctx context.Context, env *tools.Env, title, tag, prompt string) (Child, error) {
	parent := env.SessionID
	child, err := r.d.Store.CreateSession(ctx, store.NewSession{ParentID: parent, Kind: store.KindSubagent, Hidden: true, Title: title, Model: r.d.Model(),
		ParentMessageID: r.d.OpenMessage(parent), ParentCallID: tools.CallID(ctx)})
	if err != nil {
		return nil, err
	}
	ids, w, err := r.d.Store.BeginTurn(ctx, child.ID, prompt, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return nil, err
	}
	sink := r.d.Sink(parent, env.TurnID, w, ids.AssistantMessageID, tag)
	return &childRun{id: child.ID, w: w, sink: sink, notes: func() string { return r.d.ClosedNote(parent, env.TurnID) }}, nil
}

func (r *Runs) AgentModel(ctx context.Context, parent, name, model string) (Model, error) {
	return r.d.AgentModel(ctx, parent, name, model)
}

func (r *Runs) BrowserModel() (Model, error) { return r.d.BrowserModel() }

func (r *Runs) Browser(childSID string) BrowserConfig {
	cs := r.d.Settings()
	return BrowserConfig{ExecutablePath: cs.Browser.ExecutablePath, AllowLocalhost: cs.Browser.AllowLocalhost,
		AllowHosts: cs.Web.AllowHosts, ScreenshotDir: filepath.Join(r.d.StateDir, "browser", childSID)}
}

func (r *Runs) Stopped(ctx context.Context, turnID, parent, tag string) {
	r.d.Hooks.Fire(ctx, turnID, hooks.Input{SessionID: parent, HookEventName: hooks.SubagentStop, AgentTag: tag})
}

func (r *Runs) Tr(msg string, args ...any) string { return r.d.Tr(msg, args...) }

// childRun is one sub-agent's child session and turn (Child).
type childRun struct {
	id    string
	w     *store.StreamWriter
	sink  agent.Sink
	notes func() string
}

func (c *childRun) ID() string       { return c.id }
func (c *childRun) Sink() agent.Sink { return c.sink }
func (c *childRun) Notes() string    { return c.notes() }
func (c *childRun) CommitUser(ctx context.Context, text string) error {
	return c.w.CommitLLM(ctx, llm.Message{Role: llm.RoleUser, Content: text})
}

// Finish ends the child's turn; it writes on a context of its own (5s)
// so a cancelled run is still recorded as cancelled.
func (c *childRun) Finish(ctx context.Context, err error, usage *llm.Usage) {
	st := store.StatusDone
	switch {
	case ctx.Err() != nil:
		st = store.StatusCancelled
	case err != nil:
		st = store.StatusError
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err != nil {
		_ = c.w.AddNotice(fctx, store.NoticeError, err.Error())
	}
	_ = c.w.Finalize(fctx, st, usage)
}
