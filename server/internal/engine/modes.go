package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/modes/moderun"
	"github.com/govibe/govibe/server/internal/store"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/scheduler"
)

// The working modes are moderun.Modes (session mode, Phases progress,
// tool narrowing, Reconcile's controls and loop); the engine wires it
// (modesHost) and runs Plan mode's proposal (RunPlan) and the runs of a
// Phases turn (continuePhases) and of a reconcile turn (runReconcile).

// Modes is the working-modes capability (chat/setMode, the panels).
func (e *Engine) Modes() *moderun.Modes { return e.modes }

// modesHost adapts the engine to moderun.Host.
type modesHost struct{ e *Engine }

func (h modesHost) Publish(sid, turnID string, p moderun.Panel) {
	h.e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Mode, Payload: ModePayload(p)})
}
func (h modesHost) SessionExists(ctx context.Context, sid string) error {
	_, err := h.e.Store.GetSession(ctx, sid)
	return err
}
func (h modesHost) CheckIdle(sid string) error {
	if h.e.Running(sid) != "" {
		return ErrBusy
	}
	return nil
}
func (h modesHost) Reconciling(sid string) bool {
	h.e.mu.Lock()
	defer h.e.mu.Unlock()
	t := h.e.running[sid]
	return t != nil && t.reconcile
}
func (h modesHost) StartReconcile(ctx context.Context, sid, text string) (string, string, error) {
	return h.e.Send(ctx, SendParams{SessionID: sid, Text: text, reconcile: true, origin: store.OriginControl})
}
func (h modesHost) Settings() config.Settings         { return h.e.cfg() }
func (h modesHost) Tr(msg string, args ...any) string { return h.e.tr(msg, args...) }

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
	if err := e.modes.Set(ctx, sid, string(modes.Agent)); err != nil {
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
