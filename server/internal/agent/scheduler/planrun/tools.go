package planrun

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// create_todo_list is worded for who calls it: the main agent in Agent
// mode plans and hands over at once, in Plan mode it proposes a plan the
// user runs, and the evaluator changes the running plan.
const (
	createTodoDesc   = `Plan a large task as a todo list before doing it. Calling it ends your turn and the scheduler takes over: an executor agent carries out each item in order and an evaluator agent checks it. ` + todoItemsDesc
	proposeTodoDesc  = `Propose your plan as a todo list; calling it ends your turn. The user reviews it and runs it (an executor agent then carries out each item and an evaluator agent checks it) or asks you to change it. ` + todoItemsDesc
	changeTodoDesc   = `Change the running plan: give the remaining items (insert or drop), or with expandIndex (1-based) the items that replace that item. Items are {title, description, acceptance} or bare titles.`
	todoItemsDesc    = `Items are {title, description, acceptance} (how to check it, e.g. a test command that must pass) or bare titles. With expandIndex (1-based), the items replace that item of the current plan.`
	completeTodoDesc = `Mark the todo item in progress as done after checking its acceptance criteria. Give its 1-based index or its title, and a summary of what you verified. Only the item in progress can be completed.`
)

// todoTool is create_todo_list or complete_todo_item bound to one agent
// of one turn. Safe for concurrent use: the plan is changed under the
// session's plan lock and created is atomic.
type todoTool struct {
	r       *Runner
	sid     string
	turnID  string
	request string // the user's message, for the plan reviewer
	role    scheduler.Role
	tag     string
	create  bool
	propose bool        // Plan mode: the plan is proposed, not run
	created atomic.Bool // a plan was created or changed by this tool
}

// Tools returns create_todo_list and complete_todo_item for one agent
// (role, tag) of a turn; request is the user's message, for the plan
// reviewer; propose says the session is in Plan mode, where the plan is
// proposed to the user rather than run.
func (r *Runner) Tools(sid, turnID, request string, role scheduler.Role, tag string, propose bool) (create, complete tools.Tool) {
	return &todoTool{r: r, sid: sid, turnID: turnID, request: request, role: role, tag: tag, create: true, propose: propose},
		&todoTool{r: r, sid: sid, turnID: turnID, request: request, role: role, tag: tag}
}

func (t *todoTool) Name() string {
	if t.create {
		return scheduler.ToolCreateTodo
	}
	return scheduler.ToolCompleteTodo
}

func (t *todoTool) Description() string {
	switch {
	case !t.create:
		return completeTodoDesc
	case t.role == scheduler.RoleEvaluator:
		return changeTodoDesc
	case t.propose:
		return proposeTodoDesc
	}
	return createTodoDesc
}

func (t *todoTool) Schema() json.RawMessage {
	if t.create {
		return scheduler.CreateSchema
	}
	return scheduler.CompleteSchema
}

// ReadOnly is false: plan changes run alone, in the order the model wrote them.
func (t *todoTool) ReadOnly() bool { return false }

// Traits: create_todo_list makes the plan (and may ask the person to
// review it); complete_todo_item is the evaluator's verdict on an item.
func (t *todoTool) Traits() tools.Traits {
	if t.create {
		return tools.Plans
	}
	return tools.JudgesItems
}

func (t *todoTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	var msg string
	if t.create {
		a, err := scheduler.ParseCreate(raw)
		if err != nil {
			return tools.FailShown("create_todo_list: "+err.Error(), env.Tr("The todo plan was not accepted: %v", err)), nil
		}
		// A new plan from the main agent is checked by the independent
		// plan reviewer before the scheduler takes over; a rejection goes
		// back to the model to revise. An accepted plan may carry the
		// user's note.
		note := ""
		if t.role == scheduler.RoleFree {
			accepted, feedback, err := t.r.host.ReviewPlan(ctx, t.sid, t.request, a)
			if err != nil {
				return tools.Result{}, err
			}
			if !accepted {
				return tools.FailShown("create_todo_list: the plan was not accepted. "+feedback, env.Tr("The plan reviewer did not accept the plan; the model revises it.")), nil
			}
			note = feedback
		}
		_, err = t.r.Update(ctx, t.sid, t.turnID, t.tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
			q, m, err := p.Create(t.role, a)
			msg = m
			return q, err
		})
		if err != nil {
			return tools.FailShown("create_todo_list: "+err.Error(), env.Tr("The todo plan was not accepted: %v", err)), nil
		}
		t.created.Store(true)
		if note != "" {
			msg += "\n" + note
		}
		return tools.Result{OK: true, Output: msg}, nil
	}
	a, err := scheduler.ParseComplete(raw)
	if err != nil {
		return tools.FailShown("complete_todo_item: "+err.Error(), env.Tr("The todo item could not be completed: %v", err)), nil
	}
	_, err = t.r.Update(ctx, t.sid, t.turnID, t.tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		m, err := p.Complete(t.role, a)
		msg = m
		return p, err
	})
	if err != nil {
		return tools.FailShown("complete_todo_item: "+err.Error(), env.Tr("The todo item could not be completed: %v", err)), nil
	}
	return tools.Result{OK: true, Output: msg}, nil
}

// EvaluatorShell is run_shell_command limited to commands the shell
// analysis classifies read-only or checks (scheduler.EvaluatorMayRun).
func EvaluatorShell(t tools.Tool, roots []string) tools.Tool {
	return tools.GuardedShell{Tool: t, Roots: roots, Allow: scheduler.EvaluatorMayRun}
}
