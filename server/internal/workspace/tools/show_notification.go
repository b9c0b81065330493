package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

//go:embed descriptions/show_notification.md
var showNotificationDesc string

type showNotificationArgs struct {
	Message  string `json:"message" jsonschema:"required" jsonschema_description:"What to tell the user."`
	Severity string `json:"severity,omitempty" jsonschema:"enum=info,enum=warning,enum=error" jsonschema_description:"Default info."`
}

// Notification limits: a notification is a toast, not a report, and a
// prompt-injected page must not be able to flood the user's screen.
const (
	MaxNotificationChars   = 500
	MaxNotificationsPerRun = 5
)

// Severities of show_notification.
const (
	SeverityInfo    = "info"
	SeverityWarning = "warning"
	SeverityError   = "error"
)

// Notifier is implemented by approvers that can put a notification in
// front of the user (the editor, the terminal of a headless run).
type Notifier interface {
	Notify(ctx context.Context, severity, message string) error
}

// ErrTooManyNotifications is what a Notifier returns past its per-turn cap.
var ErrTooManyNotifications = errors.New("too many notifications")

// ShowNotification returns the show_notification tool. It changes nothing
// in the workspace, so read-only agents may use it.
func ShowNotification() Tool {
	return &define[showNotificationArgs]{
		name: "show_notification", desc: showNotificationDesc, traits: Notifies | Deferred,
		defaults: func() showNotificationArgs { return showNotificationArgs{Severity: SeverityInfo} },
		run:      runShowNotification,
	}
}

func runShowNotification(ctx context.Context, env *Env, a showNotificationArgs) (Result, error) {
	msg := strings.TrimSpace(a.Message)
	if msg == "" {
		return FailShown("show_notification needs a non-empty message.", env.Tr("%s: the message is empty.", "show_notification")), nil
	}
	if n := utf8.RuneCountInString(msg); n > MaxNotificationChars {
		return FailShown(fmt.Sprintf("show_notification: the message has %d characters, at most %d are allowed; shorten it and put details in your reply.", n, MaxNotificationChars),
			env.Tr("Notification not shown: it has %d characters, at most %d are allowed.", n, MaxNotificationChars)), nil
	}
	sev := strings.ToLower(strings.TrimSpace(a.Severity))
	if sev == "" {
		sev = SeverityInfo
	}
	if sev != SeverityInfo && sev != SeverityWarning && sev != SeverityError {
		return FailShown(fmt.Sprintf("show_notification: severity must be info, warning or error, not %q.", a.Severity),
			env.Tr("Notification not shown: the severity %s is not info, warning or error.", a.Severity)), nil
	}
	n, ok := env.Approver.(Notifier)
	if !ok {
		return FailShown("show_notification: nobody can see notifications in this run; say it in your reply instead.",
			env.Tr("Notification not shown: notifications cannot be shown in this run.")), nil
	}
	err := n.Notify(ctx, sev, msg)
	if errors.Is(err, ErrTooManyNotifications) {
		return FailShown(fmt.Sprintf("show_notification: this turn already showed %d notifications, the most allowed; say the rest in your reply.", MaxNotificationsPerRun),
			env.Tr("Notification not shown: this turn already showed %d notifications.", MaxNotificationsPerRun)), nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{OK: true, Output: fmt.Sprintf("Shown to the user (%s): %s", sev, msg)}, nil
}
