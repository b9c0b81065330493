package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// turnApprover is a turn's tools.Approver: the approval flow's decisions
// (package approval; resumed ones after a restart) plus ask_human and
// show_notification, which are the engine's (its Broker's dialogs, its
// stream, its hooks).
type turnApprover struct {
	approvals
	e *Engine
	t *turn
	// resumed, when set, is the question restored after a restart that
	// this run resumes, and answer the user's answer to it (AskHuman).
	resumed *approval.Confirm
	answer  approval.Answer
}

// AskHuman asks on the engine's dialogs (dialogs.Questions): in the editor's
// dialog, or headless at the terminal. A resumed run answers the restored
// question with the reply the user gave after the restart.
func (a *turnApprover) AskHuman(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
	if r := a.resumed; r != nil && r.Kind == "question" && q.ToolCallID == r.ToolCallID {
		return a.e.questions.ReplyOf(a.answer), nil
	}
	return a.e.questions.Ask(ctx, a.t.sessionID, a.t.id, q)
}

// approvals are what package approval decides for a turn.
type approvals interface {
	tools.Approver
	tools.ToolApprover
	tools.FetchApprover
	tools.BrowserApprover
}

// Notify publishes a show_notification on the session's stream, where the
// editor shows it and a headless run prints it, and tells Notification
// hooks. A turn shows at most tools.MaxNotificationsPerRun (a
// prompt-injected page must not flood the screen).
func (a *turnApprover) Notify(ctx context.Context, severity, message string) error {
	if a.t.notifications.Add(1) > tools.MaxNotificationsPerRun {
		return tools.ErrTooManyNotifications
	}
	a.e.Bus.Publish(Event{SessionID: a.t.sessionID, TurnID: a.t.id, Kind: kinds.Notification, Text: message, Status: severity,
		Payload: eventdata.Notification{Severity: severity, Message: message}})
	go a.e.hooks.Fire(a.e.baseCtx, a.t.id, hooks.Input{SessionID: a.t.sessionID, HookEventName: hooks.Notification, Message: message})
	return nil
}
