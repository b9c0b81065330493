package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/tools"
)

// Notification is the payload of a KindNotification event: what
// show_notification asked to show outside the chat (a VS Code
// notification; a line on stderr headless).
type Notification struct {
	Severity string // info, warning, error
	Message  string
}

// Notify publishes a show_notification on the session's stream, where the
// editor shows it and a headless run prints it, and tells Notification
// hooks. A turn shows at most tools.MaxNotificationsPerRun (a
// prompt-injected page must not flood the screen).
func (a *approver) Notify(ctx context.Context, severity, message string) error {
	if a.t.notifications.Add(1) > tools.MaxNotificationsPerRun {
		return tools.ErrTooManyNotifications
	}
	a.e.Bus.Publish(Event{SessionID: a.t.sessionID, TurnID: a.t.id, Kind: KindNotification, Text: message, Status: severity,
		Payload: Notification{Severity: severity, Message: message}})
	go a.e.fireHook(a.e.baseCtx, a.t.id, hooks.Input{SessionID: a.t.sessionID, HookEventName: hooks.Notification, Message: message})
	return nil
}
