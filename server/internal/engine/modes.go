package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/govibe/govibe/server/internal/store"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/scheduler"
)

// The working modes are moderun.Modes (session mode, Phases progress,
// tool narrowing, Reconcile's controls and loop); the engine wires it
// (modesHost) and runs Plan mode's proposal (RunPlan) and the runs of a
// Phases turn (continuePhases) and of a reconcile turn (runReconcile).

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
	if p := e.Plans.Todo(ctx, sid); p == nil || !p.Unfinished() {
		return "", "", ErrNoPlanToRun
	}
	if edited != nil {
		if err := e.editProposedPlan(ctx, sid, edited); err != nil {
			return "", "", err
		}
	}
	if err := e.Modes.Set(ctx, sid, string(modes.Agent)); err != nil {
		return "", "", err
	}
	return e.Send(ctx, SendParams{SessionID: sid, Text: "continue", origin: store.OriginControl})
}

func (e *Engine) editProposedPlan(ctx context.Context, sid string, edited []PlanEdit) error {
	if len(edited) == 0 {
		return errors.New(e.Tr("the plan needs at least one item"))
	}
	items := make([]scheduler.Item, len(edited))
	for i, it := range edited {
		if strings.TrimSpace(it.Title) == "" {
			return errors.New(e.Tr("item %d of the plan has no title", i+1))
		}
		items[i] = scheduler.Item{Title: strings.TrimSpace(it.Title), Description: it.Description, Acceptance: it.Acceptance, Status: scheduler.Pending}
	}
	_, err := e.Plans.Update(ctx, sid, "", TagFree, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if p == nil {
			return nil, ErrNoPlanToRun
		}
		for _, it := range p.Items {
			if it.Status != scheduler.Pending {
				return p, errors.New(e.Tr("the plan has started; its items can no longer be edited"))
			}
		}
		p.Items = items
		return p, nil
	})
	return err
}
