package engine

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"weak"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/store"
)

// todoRegistry holds an engine's per-session plan locks: every read-change-
// persist of a plan happens under its session's lock, so tools running in
// parallel, the scheduler and todo/control never lose an update. It also
// remembers which custom-agent problems were already reported. All
// methods are safe for concurrent use.
type todoRegistry struct {
	mu       sync.Mutex
	locks    map[string]*sync.Mutex
	reported map[string]bool
}

var todoRegistries sync.Map // weak.Pointer[Engine] → *todoRegistry

func (e *Engine) todoReg() *todoRegistry {
	key := weak.Make(e)
	if r, ok := todoRegistries.Load(key); ok {
		return r.(*todoRegistry)
	}
	r, loaded := todoRegistries.LoadOrStore(key, &todoRegistry{locks: map[string]*sync.Mutex{}, reported: map[string]bool{}})
	if !loaded {
		runtime.AddCleanup(e, func(k weak.Pointer[Engine]) { todoRegistries.Delete(k) }, key)
	}
	return r.(*todoRegistry)
}

func (r *todoRegistry) lock(sid string) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.locks[sid]
	if m == nil {
		m = &sync.Mutex{}
		r.locks[sid] = m
	}
	return m
}

// firstReport reports whether key has not been reported before.
func (r *todoRegistry) firstReport(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reported[key] {
		return false
	}
	r.reported[key] = true
	return true
}

// readPlan returns the persisted plan, or nil when the session has none.
func (e *Engine) readPlan(ctx context.Context, sid string) (*scheduler.Plan, error) {
	raw, ok, err := e.Store.GetState(ctx, sid, store.StateTodoPlan)
	if err != nil || !ok {
		return nil, err
	}
	var p scheduler.Plan
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// updatePlan changes the session's plan under its lock and persists it
// before returning; f returns the plan to store (nil deletes it). The
// stored plan is published as a todo event when it changed.
func (e *Engine) updatePlan(ctx context.Context, sid, turnID, tag string, f func(p *scheduler.Plan) (*scheduler.Plan, error)) (*scheduler.Plan, error) {
	m := e.todoReg().lock(sid)
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
		err = e.Store.DeleteState(ctx, sid, store.StateTodoPlan)
	} else {
		err = e.Store.SetState(ctx, sid, store.StateTodoPlan, after)
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
