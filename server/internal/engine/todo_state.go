package engine

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// readPlan returns the persisted plan, or nil when the session has none.
func (e *Engine) readPlan(ctx context.Context, sid string) (*scheduler.Plan, error) {
	p, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.TodoPlan)
	if err != nil || !ok {
		return nil, err
	}
	return &p, nil
}

// updatePlan changes the session's plan under its lock and persists it
// before returning; f returns the plan to store (nil deletes it). The
// stored plan is published as a todo event when it changed.
func (e *Engine) updatePlan(ctx context.Context, sid, turnID, tag string, f func(p *scheduler.Plan) (*scheduler.Plan, error)) (*scheduler.Plan, error) {
	m := e.planLocks.of(sid)
	m.Lock()
	defer m.Unlock()
	cur, err := e.readPlan(ctx, sid)
	if err != nil {
		return nil, err
	}
	before, _ := json.Marshal(cur)
	next, err := f(cur.Clone())
	if err != nil {
		return cur, err
	}
	after, _ := json.Marshal(next)
	if string(before) == string(after) {
		return next, nil
	}
	if next == nil {
		err = sessionstate.Delete(ctx, e.Store, sid, sessionstate.TodoPlan)
	} else {
		err = sessionstate.Set(ctx, e.Store, sid, sessionstate.TodoPlan, *next)
	}
	if err != nil {
		return cur, err
	}
	e.publishTodo(sid, turnID, tag, next)
	return next, nil
}

func (e *Engine) publishTodo(sid, turnID, tag string, p *scheduler.Plan) {
	if p == nil {
		p = &scheduler.Plan{Current: -1, Phase: scheduler.PhaseFree}
	}
	e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: KindTodo, SubAgentTag: tag, Payload: *e.visiblePlan(sid, p)})
}

// visiblePlan is the plan as the user should see it: an item still marked
// running while no turn runs was cut off (Stop, crash) and is shown as
// interrupted.
func (e *Engine) visiblePlan(sid string, p *scheduler.Plan) *scheduler.Plan {
	if p == nil {
		return nil
	}
	if e.Running(sid) == "" {
		if it := p.CurrentItem(); it != nil && it.Status == scheduler.Running {
			p = p.Clone()
			p.Interrupt()
		}
	}
	return p
}

// Todo returns the session's todo plan as shown to the user, or nil.
func (e *Engine) Todo(ctx context.Context, sid string) *scheduler.Plan {
	p, err := e.readPlan(ctx, sid)
	if err != nil {
		e.log.Warn("reading the todo plan", zap.String("session", sid), zap.Error(err))
		return nil
	}
	return e.visiblePlan(sid, p)
}
