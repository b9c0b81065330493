package hooks

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/util/lazyload"
)

// Manager is the hooks capability of one engine: user hooks from the
// hooks setting and ~/.govibe/hooks.json, project ones only in a trusted
// workspace, loaded on first use and again after a trust or settings
// change. Every run is logged and published (the chat's "hook" event).
// Safe for concurrent use.
type Manager struct {
	o      ManagerOptions
	loaded *lazyload.Loader[loadedHooks]
	// stops are the turns a hook's "continue": false ended: turn id →
	// the hook's stopReason, taken by the turn's run (StopWhen).
	stops sync.Map
}

// loadedHooks is one load: the runner and what did not load (reported
// once, when the load becomes the current one).
type loadedHooks struct {
	runner   *Runner
	problems []Problem
}

// ManagerOptions are what the manager needs from the engine.
type ManagerOptions struct {
	Home  string
	Roots []string
	// Trusted is the workspace's current trust; UserSetting the current
	// govibe.hooks value (nil when unset).
	Trusted     func() bool
	UserSetting func() json.RawMessage
	// State keeps what SessionStart hooks add until the next message.
	State sessionstate.KV
	// Publish shows one run in the session's chat (turnID may be "").
	Publish func(sid, turnID string, run Run)
	// Transcript, when set, writes the session's conversation as a JSONL
	// file and returns its path (transcript_path); "" when it cannot.
	Transcript func(ctx context.Context, sid string) string
	// PermissionMode, when set, is the session's approval mode in Claude
	// Code's words (default, plan, acceptEdits, bypassPermissions).
	PermissionMode func(ctx context.Context, sid string) string
	// Notice tells the user about malformed configuration; Tr translates.
	Notice func(level, msg string)
	Tr     func(msg string, args ...any) string
	Log    *zap.Logger
}

// NewManager returns a manager; nothing is loaded until first use.
func NewManager(o ManagerOptions) *Manager {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	m := &Manager{o: o}
	m.loaded = lazyload.New(lazyload.Options[loadedHooks]{Load: m.load, Kept: m.report})
	return m
}

func (m *Manager) load() loadedHooks {
	cfg, problems, _ := Load(m.o.UserSetting(), Sources(m.o.Home, m.o.Roots), m.o.Trusted())
	// Hooks run in the shell runner's default shell: no setting chooses
	// another (an undeclared "shell.path" was read here, always empty).
	return loadedHooks{runner: &Runner{Config: cfg, Cwd: m.o.Roots[0], Roots: m.o.Roots, Prepare: m.prepare}, problems: problems}
}

// prepare fills what an event needs only when a hook will read it: the
// session's permission mode and its transcript file (written now).
func (m *Manager) prepare(ctx context.Context, in *Input) {
	if in.PermissionMode == "" {
		in.PermissionMode = "default"
		if m.o.PermissionMode != nil && in.SessionID != "" {
			in.PermissionMode = firstNonEmpty(m.o.PermissionMode(ctx, in.SessionID), "default")
		}
	}
	if in.TranscriptPath == "" && m.o.Transcript != nil && in.SessionID != "" {
		in.TranscriptPath = m.o.Transcript(ctx, in.SessionID)
	}
}

func (m *Manager) report(l loadedHooks) {
	for _, p := range l.problems {
		m.o.Log.Warn("hook configuration", zap.String("source", p.Path), zap.String("problem", p.Message))
		m.o.Notice("warning", m.o.Tr("Hooks not loaded: %s", p.Error()))
	}
}

// Runner returns the loaded runner, loading it on first use (its problems
// are reported then).
func (m *Manager) Runner() *Runner { return m.loaded.Get().runner }

// Reset drops the loaded hooks; the next use loads them again.
func (m *Manager) Reset() { m.loaded.Reset() }

// Configured says whether any hook is configured.
func (m *Manager) Configured() bool {
	r := m.Runner()
	return r.Config != nil && r.Config.Len() > 0
}

// Fire runs the hooks of in.HookEventName and shows their runs in the
// session's chat (turnID may be "").
func (m *Manager) Fire(ctx context.Context, turnID string, in Input) Outcome {
	r := m.Runner()
	if r.Config == nil || r.Config.Len() == 0 {
		return Outcome{}
	}
	if in.Cwd == "" {
		in.Cwd = m.o.Roots[0]
	}
	out := r.Fire(ctx, in)
	for _, run := range out.Runs {
		m.o.Log.Info("hook ran", zap.String("event", string(run.Event)), zap.String("command", run.Command), zap.String("source", run.Source),
			zap.String("result", run.Result), zap.Int("exit", run.ExitCode), zap.Int64("ms", run.DurationMs), zap.String("note", run.Note))
		if in.SessionID != "" && !run.Suppressed {
			m.o.Publish(in.SessionID, turnID, run)
		}
	}
	return out
}

// PreCompact tells PreCompact hooks (trigger manual for the user's
// /compact and button, auto otherwise); they cannot stop a compaction.
func (m *Manager) PreCompact(ctx context.Context, sid, turnID string, manual bool) {
	kind := "auto"
	if manual {
		kind = "manual"
	}
	m.Fire(ctx, turnID, Input{SessionID: sid, HookEventName: PreCompact, Trigger: kind})
}

// SessionStart runs SessionStart hooks for a new session (source
// "startup") or one /clear emptied ("clear"). What they add (plain stdout
// or additionalContext) waits in session state for the session's next
// message, whose model text takes it (TakeSessionContext).
func (m *Manager) SessionStart(ctx context.Context, sid, source string) {
	out := m.Fire(ctx, "", Input{SessionID: sid, HookEventName: SessionStart, Source: source})
	if c := strings.TrimSpace(out.AdditionalContext); c != "" {
		if err := sessionstate.Set(ctx, m.o.State, sid, sessionstate.HookContext, c); err != nil {
			m.o.Log.Warn("keeping SessionStart hook context", zap.String("session", sid), zap.Error(err))
		}
	}
}

// TakeSessionContext returns and removes what SessionStart hooks added.
func (m *Manager) TakeSessionContext(ctx context.Context, sid string) string {
	c := sessionstate.Lookup(ctx, m.o.State, sid, sessionstate.HookContext)
	if c != "" {
		_ = sessionstate.Delete(ctx, m.o.State, sid, sessionstate.HookContext)
	}
	return c
}

// stopTurn remembers a tool hook's "continue": false for its turn.
func (m *Manager) stopTurn(turnID string, out Outcome) {
	if out.Stop && turnID != "" {
		m.stops.Store(turnID, out.StopReason)
	}
}

// StopWhen is the turn's check, after each round of tool calls, for a
// hook that stopped it ("continue": false): the hook's stopReason once,
// then "".
func (m *Manager) StopWhen(turnID string) func() string {
	return func() string {
		if v, ok := m.stops.LoadAndDelete(turnID); ok {
			return "a hook stopped the turn: " + v.(string)
		}
		return ""
	}
}
