package engine

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/usage"

	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// Internals the external tests (package engine_test) check.

// CountStateReads makes the working modes read the session state through
// a counter of the reads of key, and returns the counter.
func CountStateReads(e *Engine, key string) *atomic.Int64 {
	n := new(atomic.Int64)
	e.Modes = moderun.New(newModesHost(e), countingKV{KV: e.Store, key: key, n: n}, e.opts.Roots)
	return n
}

// countingKV counts the reads of one key.
type countingKV struct {
	sessionstate.KV
	key string
	n   *atomic.Int64
}

func (c countingKV) GetState(ctx context.Context, sid, key string) (json.RawMessage, bool, error) {
	if key == c.key {
		c.n.Add(1)
	}
	return c.KV.GetState(ctx, sid, key)
}

// TurnUsageOf returns a finished turn's recorded usage.
func TurnUsageOf(e *Engine, ctx context.Context, sid string, turn int) (usage.Turn, bool) {
	return e.Meter.TurnOf(ctx, sid, turn)
}

// reviewPlan is the plan review create_todo_list asks for, outside a tool
// call (approval.Approvals.ReviewPlan on the session's running turn).
func reviewPlan(e *Engine, ctx context.Context, sid, request string, plan any) (approval.PlanReview, error) {
	return e.Approvals.ReviewPlan(ctx, e.turnTarget(sid), request, plan)
}
