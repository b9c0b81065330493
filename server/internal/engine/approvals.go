package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/allowrules"
	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// The approval flow lives in package approval (e.approvals); these are
// its names for the engine's callers.
type (
	// Editor applies accepted edits through the attached editor (its
	// undo stack, its open buffers).
	Editor = approval.Editor
	// PlanReview is the outcome of ReviewPlan.
	PlanReview = approval.PlanReview
)

// approverOf is the approval flow of a turn.
func (e *Engine) approverOf(t *turn, beforeMutation func(context.Context)) *approval.Approver {
	return e.approvals.For(approval.Turn{SessionID: t.sessionID, ID: t.id, Request: t.text, BeforeMutation: beforeMutation,
		AllowRules: t.limits.Rules,
		MessageID: func() string {
			if t.writer != nil {
				return t.writer.MessageID()
			}
			return ""
		}})
}

// ReviewPlan checks a plan from create_todo_list against the user's
// request (govibe.todolistReview.*); see approval.Approvals.ReviewPlan.
// Call it from the tool's goroutine: the tool call id in ctx
// (tools.CallID) ties a question to the call.
func (e *Engine) ReviewPlan(ctx context.Context, sessionID, userRequest string, plan any) (PlanReview, error) {
	return e.approvals.ReviewPlan(ctx, e.turnTarget(sessionID), userRequest, plan)
}

// PermissionProblems lists the invalid permission rules, each naming the
// setting and the entry to fix, in the user's language. The server shows
// them as notices; govibe exec prints them as warnings.
func (e *Engine) PermissionProblems() []string { return e.approvals.PermissionProblems() }

// readable is the tools' Read-rule check (tools.Env.Readable).
func (e *Engine) readable(abs string) error { return e.approvals.Readable(abs) }

// displayPath shows a path relative to its workspace root when inside one.
func (e *Engine) displayPath(abs string) string { return e.approvals.DisplayPath(abs) }

// AllowRules is the user's always-allow file (nil when none is
// configured, as in tests that do not ask for one).
func (e *Engine) AllowRules() *allowrules.File { return e.opts.AllowRules }

// SetCurrentTodoItem tells the security reviewer which todo item the
// session is working on ("" when none). The scheduler calls it as it
// dispatches items.
func (e *Engine) SetCurrentTodoItem(ctx context.Context, sessionID, item string) error {
	return sessionstate.Set(ctx, e.Store, sessionID, sessionstate.TodoItem, item)
}
