package planrun

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// Host is what the plan runner needs from the engine.
type Host interface {
	// PublishTodo announces the plan as the user should see it.
	PublishTodo(sid, turnID, tag string, p scheduler.Plan)
	// Running reports whether the session runs a turn now.
	Running(sid string) bool
	// ReviewPlan asks the plan reviewer (and, if it gives up, the user)
	// about a new plan; feedback goes to the model (why it was not
	// accepted, or the user's note on an accepted plan). The error is
	// non-nil only when ctx ends.
	ReviewPlan(ctx context.Context, sid, request string, plan any) (accepted bool, feedback string, err error)
	// Limits are govibe.scheduler.*.
	Limits() scheduler.Limits
	// BlockCompaction refuses global compaction until unblock is called.
	BlockCompaction(sid, why string) (unblock func())
}

// Store is the store access the plan runner needs: session state for the
// plan, the model track for scoped compaction. *store.Store implements it.
type Store interface {
	sessionstate.KV
	LLMMessages(ctx context.Context, sid string) ([]llm.Message, error)
	ReplaceLLMMessages(ctx context.Context, sid string, from, to int, msgs []llm.Message) error
}

// Runner runs the plans of one engine's sessions. Safe for concurrent
// use: every read-change-persist of a plan happens under its session's
// lock, so tools running in parallel, the runner and todo/control never
// lose an update.
type Runner struct {
	host  Host
	store Store
	log   *zap.Logger
	locks sessionstate.Locks
}

// New returns a runner.
func New(h Host, s Store, log *zap.Logger) *Runner {
	if log == nil {
		log = zap.NewNop()
	}
	return &Runner{host: h, store: s, log: log}
}

// Read returns the persisted plan, or nil when the session has none.
func (r *Runner) Read(ctx context.Context, sid string) (*scheduler.Plan, error) {
	p, ok, err := sessionstate.Get(ctx, r.store, sid, scheduler.TodoPlanKey)
	if err != nil || !ok {
		return nil, err
	}
	return &p, nil
}

// Update changes the session's plan under its lock and persists it
// before returning; f returns the plan to store (nil deletes it). The
// stored plan is published as a todo event when it changed.
func (r *Runner) Update(ctx context.Context, sid, turnID, tag string, f func(p *scheduler.Plan) (*scheduler.Plan, error)) (*scheduler.Plan, error) {
	m := r.locks.Of(sid)
	m.Lock()
	defer m.Unlock()
	cur, err := r.Read(ctx, sid)
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
		err = sessionstate.Delete(ctx, r.store, sid, scheduler.TodoPlanKey)
	} else {
		err = sessionstate.Set(ctx, r.store, sid, scheduler.TodoPlanKey, *next)
	}
	if err != nil {
		return cur, err
	}
	r.publish(sid, turnID, tag, next)
	return next, nil
}

func (r *Runner) publish(sid, turnID, tag string, p *scheduler.Plan) {
	if p == nil {
		p = &scheduler.Plan{Current: -1, Phase: scheduler.PhaseFree}
	}
	r.host.PublishTodo(sid, turnID, tag, *r.Visible(sid, p))
}

// Visible is the plan as the user should see it: an item still marked
// running while no turn runs was cut off (Stop, crash) and is shown as
// interrupted.
func (r *Runner) Visible(sid string, p *scheduler.Plan) *scheduler.Plan {
	if p == nil {
		return nil
	}
	if !r.host.Running(sid) {
		if it := p.CurrentItem(); it != nil && it.Status == scheduler.Running {
			p = p.Clone()
			p.Interrupt()
		}
	}
	return p
}

// Todo returns the session's plan as shown to the user, or nil.
func (r *Runner) Todo(ctx context.Context, sid string) *scheduler.Plan {
	p, err := r.Read(ctx, sid)
	if err != nil {
		r.log.Warn("reading the todo plan", zap.String("session", sid), zap.Error(err))
		return nil
	}
	return r.Visible(sid, p)
}
