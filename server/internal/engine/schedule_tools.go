package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/tools"
)

// roleTools is what an agent of role is given: every agent of a turn gets
// the same list in the same order (so tool definitions stay identical),
// and Blocked removes what its role may not use. The evaluator's shell is
// limited to read-only commands.
func (e *Engine) roleTools(ctx context.Context, t *turn, role scheduler.Role, tag string, final bool) ([]tools.Tool, map[string]string) {
	ts := e.freeTools(t.sessionID, t.id)
	create, complete := e.todoTools(t.sessionID, t.id, t.text, role, tag)
	ts = append(ts, create, complete)
	ts = append(ts, e.subagentTools(ctx, t.sessionID)...)
	if role == scheduler.RoleEvaluator {
		for i, x := range ts {
			if x.Name() == scheduler.ToolShell {
				ts[i] = evaluatorShell{Tool: x, roots: e.opts.Roots}
			}
		}
	}
	names := make([]string, len(ts))
	for i, x := range ts {
		names[i] = x.Name()
	}
	blocked := scheduler.Blocked(role, names, final)
	if t.btw {
		blocked[scheduler.ToolCreateTodo] = "a side conversation (btw) never starts a todo plan"
	}
	return ts, blocked
}

// freeStopAfter makes the free run hand over to the scheduler once a round
// called create_todo_list (never in a side conversation).
func freeStopAfter(t *turn) map[string]bool {
	if t.btw {
		return nil
	}
	return map[string]bool{scheduler.ToolCreateTodo: true}
}

// schedLimits reads govibe.scheduler.*.
func (e *Engine) schedLimits() scheduler.Limits {
	v := e.Settings()
	return scheduler.Limits{
		MaxRetries:      v.Int("scheduler.maxRetries"),
		MaxAgentTurns:   v.Int("scheduler.maxAgentTurns"),
		MaxAgentMinutes: v.Float("scheduler.maxAgentMinutes"),
	}.Normalized()
}
