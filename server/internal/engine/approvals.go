package engine

import (
	"context"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/allowrules"
	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/tools"
)

// approvalHost is the engine as the approval flow sees it.
type approvalHost struct{ e *Engine }

func (h approvalHost) Settings() config.Settings { return config.Typed(h.e.Settings()) }

// Ask waits for the person; the wait is not the call's run time.
func (h approvalHost) Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error) {
	start := time.Now()
	defer func() { tools.AddWait(ctx, time.Since(start)) }()
	return h.e.Broker.Ask(ctx, c)
}

func (h approvalHost) Tr(msg string, args ...any) string { return h.e.tr(msg, args...) }

func (h approvalHost) Notice(sid, turnID, level, text string) {
	h.e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Notice, Status: level, Text: text})
}

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
func (e *Engine) ReviewPlan(ctx context.Context, sessionID, userRequest string, plan any) (approval.PlanReview, error) {
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
