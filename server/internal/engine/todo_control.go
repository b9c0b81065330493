package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/storage/store"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
)

// TodoControl applies the todo panel's Stop, Skip item, Retry item and
// Resume. index is 0-based. Skip and Retry while the plan runs stop the
// running agent first, then continue the plan.
func (e *Engine) TodoControl(ctx context.Context, sid, action string, index int) error {
	if _, err := e.Store.GetSession(ctx, sid); err != nil {
		return fmt.Errorf("session %s: %w", sid, err)
	}
	plan, err := e.Plans.Read(ctx, sid)
	if err != nil {
		return err
	}
	if plan == nil || len(plan.Items) == 0 {
		return errors.New("this session has no todo list")
	}
	switch action {
	case planrun.Stop:
		if e.Running(sid) == "" {
			return errors.New("the todo list is not running")
		}
		e.Cancel(sid)
		return nil
	case planrun.Resume:
		if e.Running(sid) != "" {
			return ErrBusy
		}
		if !plan.Unfinished() {
			return errors.New("the todo list has nothing left to run")
		}
		_, _, err := e.Send(ctx, SendParams{SessionID: sid, Text: planrun.ResumeText, origin: store.OriginControl})
		return err
	case planrun.Skip, planrun.Retry:
		wasRunning := e.Running(sid) != ""
		if action == planrun.Skip && index < 0 {
			index = plan.Current
		}
		// Validate before stopping anything.
		probe := plan.Clone()
		if err := planrun.ApplyControl(probe, action, index); err != nil {
			return err
		}
		if wasRunning {
			if action == planrun.Retry && index == plan.Current {
				return fmt.Errorf("item %d is running; stop it first", index+1)
			}
			e.Cancel(sid)
			if e.Running(sid) != "" {
				return errors.New("the running agent did not stop in time; try again")
			}
		}
		if _, err := e.Plans.Update(ctx, sid, "", TagFree, func(p *scheduler.Plan) (*scheduler.Plan, error) {
			if p == nil {
				return nil, errors.New("this session has no todo list")
			}
			p.Interrupt()
			return p, planrun.ApplyControl(p, action, index)
		}); err != nil {
			return err
		}
		if wasRunning {
			_, _, err := e.Send(ctx, SendParams{SessionID: sid, Text: planrun.ResumeText, origin: store.OriginControl})
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown todo action %q (want stop, skip, retry or resume)", action)
}
