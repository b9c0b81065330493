package moderun

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Panel is a mode event for the session's chat panel: exactly one field
// is set.
type Panel struct {
	Switched  modes.Mode      // the session switched to this mode
	Phases    *modes.Progress // Phases mode's record moved
	Reconcile *ReconcileView  // a reconcile run moved
}

// Host is what the modes need from the engine.
type Host interface {
	// Publish sends a mode event to the session's chat.
	Publish(sid, turnID string, p Panel)
	// SessionExists fails for an unknown session.
	SessionExists(ctx context.Context, sid string) error
	// CheckIdle fails (with the engine's busy error) while a turn runs in
	// the session; Reconciling reports whether a running turn drives the
	// session's reconcile loop.
	CheckIdle(sid string) error
	Reconciling(sid string) bool
	// StartReconcile sends text as a control message whose turn runs the
	// session's reconcile loop; it answers the session and turn ids.
	StartReconcile(ctx context.Context, sid, text string) (string, string, error)
	Settings() config.Settings
	// Tr translates a message for the user.
	Tr(msg string, args ...any) string
}

// Modes is one engine's working modes. Safe for concurrent use: its state
// is session state.
type Modes struct {
	host  Host
	store sessionstate.KV
	roots []string
	// calls holds, per session, the calls of the current Phases phase
	// (*phaseCalls), for the repeat guard.
	calls sync.Map
}

// New returns the modes of an engine whose workspace roots are roots.
func New(h Host, st sessionstate.KV, roots []string) *Modes {
	return &Modes{host: h, store: st, roots: roots}
}

// Mode is the session's working mode (Agent when unset or unreadable).
func (m *Modes) Mode(ctx context.Context, sid string) modes.Mode {
	v := sessionstate.Lookup(ctx, m.store, sid, modes.ModeKey)
	if _, err := modes.Parse(string(v)); err != nil || v == "" {
		return modes.Agent
	}
	return v
}

// Set switches a session's mode; it applies from the next turn. A switch
// into Phases starts its machine afresh.
func (m *Modes) Set(ctx context.Context, sid, name string) error {
	md, err := modes.Parse(name)
	if err != nil {
		return err
	}
	if err := m.host.SessionExists(ctx, sid); err != nil {
		return fmt.Errorf("session %s: %w", sid, err)
	}
	if md == modes.Phases && m.Mode(ctx, sid) != modes.Phases {
		if err := sessionstate.Delete(ctx, m.store, sid, modes.PhaseProgressKey); err != nil {
			return err
		}
	}
	if err := sessionstate.Set(ctx, m.store, sid, modes.ModeKey, md); err != nil {
		return err
	}
	// The panel and picker follow a switch made anywhere (/reconcile, Run plan).
	m.host.Publish(sid, "", Panel{Switched: md})
	return nil
}

// Progress is the session's Phases-mode record.
func (m *Modes) Progress(ctx context.Context, sid string) modes.Progress {
	p := sessionstate.Lookup(ctx, m.store, sid, modes.PhaseProgressKey)
	if p.State == "" {
		p.State = modes.Exploring
	}
	return p
}

// phase is the phase the session's mode md is in for this turn.
func (m *Modes) phase(ctx context.Context, sid string, md modes.Mode) modes.Phase {
	switch md {
	case modes.Phases:
		return modes.PhaseOf(md, string(m.Progress(ctx, sid).State))
	}
	return modes.PhaseOf(md, "")
}

// ProposesOnly says whether a created todo plan stops at the proposal
// (Plan mode) instead of running: the user edits it and runs it.
func (m *Modes) ProposesOnly(ctx context.Context, sid string) bool {
	return m.Turn(ctx, sid).ProposesOnly()
}

// Tools narrows a free run's tools by the session's mode: the mode's own
// tools are added (Phases mode's report tools), write tools carry the
// drafting path rule in Reconcile mode and move the plan on in PATCHING,
// the shell may only check in a phase that says so, and a Phases run
// refuses a call it already made.
func (m *Modes) Tools(ctx context.Context, sid string, ts []tools.Tool) []tools.Tool {
	return m.Turn(ctx, sid).Tools(ctx, ts)
}

// proposal is create_todo_list in Plan mode: the plan is proposed, not
// run, and the model's result says so (the tool's own text announces the
// scheduler, which would mislead the next turn).
type proposal struct{ tools.Tool }

func (p proposal) Run(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	res, err := p.Tool.Run(ctx, env, args)
	if err == nil && res.OK {
		res.Output = "The plan is proposed, not run: the user reviews it, may edit it, and runs it with Run plan."
	}
	return res, err
}

func proposeOnly(md modes.Mode, ts []tools.Tool) []tools.Tool {
	if md != modes.Plan {
		return ts
	}
	for i, t := range ts {
		if t.Name() == modes.ToolCreateTodo {
			ts[i] = proposal{t}
		}
	}
	return ts
}

// Where is the session's mode and where it stands (a Phases state; ""
// otherwise), as toolpolicy.Situation takes them.
func (m *Modes) Where(ctx context.Context, sid string) (modes.Mode, string) {
	return m.Turn(ctx, sid).Where(ctx)
}

// StopWhen is a Phases run's stop: once the machine's state moves on (a
// report accepted, the last plan step written), the run ends and the
// next one offers the next state's tools. A refused report does not stop
// the run: the model reads why and tries again within it. nil outside
// Phases mode.
func (m *Modes) StopWhen(ctx context.Context, sid string) func() string {
	return m.Turn(ctx, sid).StopWhen(ctx)
}

// StopWhen is Modes.StopWhen in this turn's mode.
func (t Turn) StopWhen(ctx context.Context) func() string {
	m, sid := t.m, t.sid
	if t.mode != modes.Phases {
		return nil
	}
	from := m.Progress(ctx, sid).State
	return func() string {
		if st := m.Progress(ctx, sid).State; st != from {
			return "phase " + string(st)
		}
		return ""
	}
}

// phaseShell limits run_shell_command to read-only commands and checks
// in a phase that says so (Phases mode's VERIFYING): enforced when the
// command is called, whatever the model sends.
func (m *Modes) phaseShell(ctx context.Context, sid string, md modes.Mode, ts []tools.Tool) []tools.Tool {
	ph := m.phase(ctx, sid, md)
	if !ph.ReadOnlyShell {
		return ts
	}
	for i, t := range ts {
		if t.Name() == modes.ToolShell {
			ts[i] = ChecksOnlyShell(t, m.roots, "the "+ph.Name+" phase")
		}
	}
	return ts
}
