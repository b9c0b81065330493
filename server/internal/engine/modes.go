package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/tools"
)

// The engine's side of the working modes (package modes): the session's
// mode is persisted state, and every run's offered tools are narrowed by
// the mode's current phase through the same Blocked map the scheduler's
// roles use, so a phase's whitelist is both offered and enforced.

// Mode is the session's working mode (Agent when unset or unreadable).
func (e *Engine) Mode(ctx context.Context, sid string) modes.Mode {
	m := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Mode)
	if _, err := modes.Parse(string(m)); err != nil || m == "" {
		return modes.Agent
	}
	return m
}

// SetMode switches a session's mode; it applies from the next turn. A
// switch into Phases starts its machine afresh.
func (e *Engine) SetMode(ctx context.Context, sid, name string) error {
	m, err := modes.Parse(name)
	if err != nil {
		return err
	}
	if _, err := e.Store.GetSession(ctx, sid); err != nil {
		return fmt.Errorf("session %s: %w", sid, err)
	}
	if m == modes.Phases && e.Mode(ctx, sid) != modes.Phases {
		if err := sessionstate.Delete(ctx, e.Store, sid, sessionstate.PhaseProgress); err != nil {
			return err
		}
	}
	return sessionstate.Set(ctx, e.Store, sid, sessionstate.Mode, m)
}

// PhaseProgress is the session's Phases-mode record.
func (e *Engine) PhaseProgress(ctx context.Context, sid string) modes.Progress {
	p := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.PhaseProgress)
	if p.State == "" {
		p.State = modes.Exploring
	}
	return p
}

// modePhase is the phase the session's mode is in for this turn.
func (e *Engine) modePhase(ctx context.Context, sid string) modes.Phase {
	m := e.Mode(ctx, sid)
	switch m {
	case modes.Phases:
		return modes.PhaseOf(m, string(e.PhaseProgress(ctx, sid).State))
	}
	return modes.PhaseOf(m, "")
}

// blockByMode adds the mode phase's refusals to a run's blocked tools
// (nothing for Agent mode, whose phases are the scheduler's roles).
func (e *Engine) blockByMode(ctx context.Context, sid string, ts []tools.Tool, blocked map[string]string) map[string]string {
	ph := e.modePhase(ctx, sid)
	infos := make([]modes.ToolInfo, len(ts))
	for i, t := range ts {
		infos[i] = modes.ToolInfo{Name: t.Name(), ReadOnly: t.ReadOnly()}
	}
	if blocked == nil {
		blocked = map[string]string{}
	}
	for n, why := range ph.Blocked(infos) {
		if _, ok := blocked[n]; !ok {
			blocked[n] = why
		}
	}
	return blocked
}

// ErrNoPlanToRun is RunPlan without a proposed plan with work left.
var ErrNoPlanToRun = errors.New("there is no proposed plan with work left to run")

// RunPlan hands the plan that Plan mode proposed to the scheduler: the
// session goes back to Agent mode and the plan runner resumes the plan
// as it does after "continue".
func (e *Engine) RunPlan(ctx context.Context, sid string) (string, string, error) {
	if p := e.Todo(ctx, sid); p == nil || !p.Unfinished() {
		return "", "", ErrNoPlanToRun
	}
	if err := e.SetMode(ctx, sid, string(modes.Agent)); err != nil {
		return "", "", err
	}
	return e.Send(ctx, SendParams{SessionID: sid, Text: "continue"})
}

// proposesOnly says whether a created todo plan stops at the proposal
// (Plan mode) instead of running: the user edits it and runs it.
func (e *Engine) proposesOnly(ctx context.Context, sid string) bool {
	return e.Mode(ctx, sid) == modes.Plan
}

// phaseShell limits run_shell_command to read-only commands and checks
// in a phase that says so (Phases mode's VERIFYING): enforced when the
// command is called, whatever the model sends.
func (e *Engine) phaseShell(ctx context.Context, sid string, ts []tools.Tool) []tools.Tool {
	ph := e.modePhase(ctx, sid)
	if !ph.ReadOnlyShell {
		return ts
	}
	for i, t := range ts {
		if t.Name() == modes.ToolShell {
			ts[i] = checksOnlyShell{Tool: t, roots: e.opts.Roots, who: "the " + ph.Name + " phase"}
		}
	}
	return ts
}
