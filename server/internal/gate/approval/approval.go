package approval

import (
	"context"
	"github.com/govibe/govibe/server/internal/gate/osbox"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Host is what the approval flow needs from the engine.
type Host interface {
	// Settings are the effective settings.
	Settings() config.Settings
	// Ask parks a confirmation for the user and waits for the answer or
	// ctx's end.
	Ask(ctx context.Context, c Confirm) (Answer, error)
	// Tr translates a message for the user.
	Tr(msg string, args ...any) string
	// Notice shows a notice (already in the user's language) on a turn;
	// level is "" or "warn".
	Notice(sessionID, turnID, level, text string)
}

// Editor applies accepted edits through the attached editor (its undo
// stack, its open buffers).
type Editor interface {
	ApplyEdit(ctx context.Context, path, content, expected string, del bool) (applied bool, reason string, err error)
}

// Options are fixed for an engine's life.
type Options struct {
	Roots []string
	// Headless runs cannot ask: Approve (none|edits|all) answers.
	Headless bool
	Approve  string
	// AskTerminal, headless with a terminal on stdin, asks the person
	// there (the plan question); nil when nobody can answer.
	AskTerminal func(context.Context, tools.HumanQuestion) (tools.HumanReply, error)
	// SettingOrigin, headless, says where a setting's value was written
	// (flags, environment, settings file), in the user's language; "" or
	// nil falls back to user or workspace settings.
	SettingOrigin func(key string) string
	// Editor, when set, writes accepted edits.
	Editor Editor
	// AllowRules is the user's always-allow file (nil when none).
	AllowRules *allowrules.File
	// Sandbox reports the OS sandbox of this machine (nil: osbox.Detect).
	Sandbox func() osbox.Status
	Log     *zap.Logger
}

// Approvals is one engine's approval flow. Safe for concurrent use: it
// holds no mutable state; what it remembers (anti-repeat runs) is session
// state, and always-allow rules are the allow-rules file's.
type Approvals struct {
	host      Host
	store     sessionstate.KV
	reviewers *reviewers.Reviewers
	opts      Options
	log       *zap.Logger
}

// New returns the approval flow of one engine.
func New(h Host, st sessionstate.KV, rv *reviewers.Reviewers, o Options) *Approvals {
	log := o.Log
	if log == nil {
		log = zap.NewNop()
	}
	return &Approvals{host: h, store: st, reviewers: rv, opts: o, log: log}
}

// Turn is the turn an Approver decides for.
type Turn struct {
	SessionID, ID string
	// Request is the user's message (the reviewers read it).
	Request string
	// MessageID is the message the turn writes now ("" when none).
	MessageID func() string
	// BeforeMutation runs before an accepted edit is written by the
	// editor (the turn's before-snapshot).
	BeforeMutation func(context.Context)
	// AllowRules are permission rules (`Bash(git add:*)`) the custom
	// command that started the turn allows for it (its allowed-tools);
	// see turnrules.go.
	AllowRules []string
}

// Approver decides the confirmations of one turn. Safe for concurrent use
// (it holds no mutable state of its own).
type Approver struct {
	x *Approvals
	t Turn
}

// For returns the approver of a turn.
func (x *Approvals) For(t Turn) *Approver {
	if t.MessageID == nil {
		t.MessageID = func() string { return "" }
	}
	if t.BeforeMutation == nil {
		t.BeforeMutation = func(context.Context) {}
	}
	return &Approver{x: x, t: t}
}

// target is where the approver's reviews belong: its turn, and the
// message the turn is writing now.
func (a *Approver) target(title string) reviewers.Target {
	return reviewers.Target{SessionID: a.t.SessionID, TurnID: a.t.ID, MessageID: a.t.MessageID(), Title: title}
}

var (
	_ tools.Approver     = (*Approver)(nil)
	_ tools.ToolApprover = (*Approver)(nil)
	_ tools.Approver     = (*Resumed)(nil)
	_ tools.ToolApprover = (*Resumed)(nil)
)

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}
