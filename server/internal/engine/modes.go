package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// The working modes are moderun.Modes (session mode, Phases progress,
// tool narrowing, Reconcile's controls and loop, a Phases turn's runs and
// a reconcile turn); the engine wires them (modesHost, wiring_modes.go)
// and runs Plan mode's proposal (RunPlan).

// ErrNoPlanToRun is RunPlan without a proposed plan with work left.
var ErrNoPlanToRun = moderun.ErrNoPlanToRun

// PlanEdit is one item of a proposed plan as the user edited it.
type PlanEdit = moderun.PlanEdit

// RunPlan hands the plan that Plan mode proposed to the scheduler: the
// session goes back to Agent mode and the plan runner resumes the plan
// as it does after "continue". edited, when not nil, replaces the
// proposed items (the user's edits in the panel): allowed only while no
// item has started, and every item needs a title.
func (e *Engine) RunPlan(ctx context.Context, sid string, edited []PlanEdit) (string, string, error) {
	if p := e.Plans.Todo(ctx, sid); p == nil || !p.Unfinished() {
		return "", "", ErrNoPlanToRun
	}
	if edited != nil {
		items, err := moderun.PlanItems(edited, e.Tr)
		if err == nil {
			_, err = e.Plans.Update(ctx, sid, "", TagFree, func(p *scheduler.Plan) (*scheduler.Plan, error) {
				return moderun.ReplacePlanItems(p, items, e.Tr)
			})
		}
		if err != nil {
			return "", "", err
		}
	}
	if err := e.Modes.Set(ctx, sid, string(modes.Agent)); err != nil {
		return "", "", err
	}
	return e.Send(ctx, SendParams{SessionID: sid, Text: "continue", origin: store.OriginControl})
}
