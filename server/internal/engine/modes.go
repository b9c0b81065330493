package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/store"
	"strings"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/scheduler"
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
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.Mode, m); err != nil {
		return err
	}
	// The panel and picker follow a switch made anywhere (/reconcile, Run plan).
	e.Bus.Publish(Event{SessionID: sid, Kind: KindMode, Payload: m})
	return nil
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

// PlanEdit is one item of a proposed plan as the user edited it.
type PlanEdit struct {
	Title       string
	Description string
	Acceptance  string
}

// RunPlan hands the plan that Plan mode proposed to the scheduler: the
// session goes back to Agent mode and the plan runner resumes the plan
// as it does after "continue". edited, when not nil, replaces the
// proposed items (the user's edits in the panel): allowed only while no
// item has started, and every item needs a title.
func (e *Engine) RunPlan(ctx context.Context, sid string, edited []PlanEdit) (string, string, error) {
	if p := e.Todo(ctx, sid); p == nil || !p.Unfinished() {
		return "", "", ErrNoPlanToRun
	}
	if edited != nil {
		if err := e.editProposedPlan(ctx, sid, edited); err != nil {
			return "", "", err
		}
	}
	if err := e.SetMode(ctx, sid, string(modes.Agent)); err != nil {
		return "", "", err
	}
	return e.Send(ctx, SendParams{SessionID: sid, Text: "continue", origin: store.OriginControl})
}

func (e *Engine) editProposedPlan(ctx context.Context, sid string, edited []PlanEdit) error {
	if len(edited) == 0 {
		return errors.New(e.tr("the plan needs at least one item"))
	}
	items := make([]scheduler.Item, len(edited))
	for i, it := range edited {
		if strings.TrimSpace(it.Title) == "" {
			return errors.New(e.tr("item %d of the plan has no title", i+1))
		}
		items[i] = scheduler.Item{Title: strings.TrimSpace(it.Title), Description: it.Description, Acceptance: it.Acceptance, Status: scheduler.Pending}
	}
	_, err := e.plans.Update(ctx, sid, "", TagFree, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if p == nil {
			return nil, ErrNoPlanToRun
		}
		for _, it := range p.Items {
			if it.Status != scheduler.Pending {
				return p, errors.New(e.tr("the plan has started; its items can no longer be edited"))
			}
		}
		p.Items = items
		return p, nil
	})
	return err
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
			ts[i] = checksOnlyShell(t, e.opts.Roots, "the "+ph.Name+" phase")
		}
	}
	return ts
}
