package protocol

import "github.com/govibe/govibe/protocol/kinds"

// ChatSendParams starts a turn. An empty SessionID creates a session.
type ChatSendParams struct {
	SessionID string         `json:"sessionId"`
	Text      string         `json:"text"`
	Editor    *EditorContext `json:"editor,omitempty"`
	// RetryOf names the failed turn (its user message id) this send
	// retries: once the new turn has started, that attempt leaves the
	// transcript (session/load no longer returns it), so a retry replaces
	// it instead of repeating the message under it.
	RetryOf string `json:"retryOf,omitempty"`
}

// EditorContext is the active editor, for the prompt's host section.
type EditorContext struct {
	ActiveFile string `json:"activeFile,omitempty"`
	Selection  string `json:"selection,omitempty"`
	Language   string `json:"language,omitempty"`
}

type ChatSendResult struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
}

type ChatCancelParams struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId,omitempty"`
}

// ChatSetModeParams switches a session's working mode.
type ChatSetModeParams struct {
	SessionID string `json:"sessionId"`
	Mode      string `json:"mode"`
}

// ChatRunPlanParams runs the plan Plan mode proposed. Items, when set,
// replace the proposed items (the user's edits); none may have started.
type ChatRunPlanParams struct {
	SessionID string         `json:"sessionId"`
	Items     []PlanItemEdit `json:"items,omitempty"`
}

// PlanItemEdit is one todo item as the user edited it.
type PlanItemEdit struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Acceptance  string `json:"acceptance,omitempty"`
}

// ReconcileApproveParams approves the session's drafted Vibe Manifest and
// starts the reconcile loop. Manifest, when set, is the edited manifest
// (the whole JSON); otherwise its file is read as it is.
type ReconcileApproveParams struct {
	SessionID string `json:"sessionId"`
	Manifest  string `json:"manifest,omitempty"`
}

// ReconcileParams names the session of a reconcile control.
type ReconcileParams struct {
	SessionID string `json:"sessionId"`
}

type ChatSetEditEnabledParams struct {
	SessionID string `json:"sessionId"`
	Enabled   bool   `json:"enabled"`
}

// EventKind is the kind of a chat/event; the vocabulary lives in the leaf
// package kinds so the engine can share it without importing wire types.
type EventKind = kinds.Kind

// ChatEvent is one entry of a session's ordered event stream. Seq increases
// by one per event within a session, so a client can detect gaps and resume
// from the last seq it applied.
type ChatEvent struct {
	SessionID string    `json:"sessionId"`
	Seq       int64     `json:"seq"`
	TurnID    string    `json:"turnId,omitempty"`
	Kind      EventKind `json:"kind"`
	MessageID string    `json:"messageId,omitempty"`
	// SubAgentTag groups events: "free", "executor:N", "evaluator:N", ...
	SubAgentTag string `json:"subAgentTag,omitempty"`
	Text        string `json:"text,omitempty"`
	// Status is the final turn status for turnFinished
	// (done|error|cancelled|max_turns) or a tool status.
	Status  string     `json:"status,omitempty"`
	Usage   *Usage     `json:"usage,omitempty"`
	Tool    *ToolEvent `json:"tool,omitempty"`
	Error   *ErrorInfo `json:"error,omitempty"`
	Message *Message   `json:"message,omitempty"`
	// Payloads holds the kind's data, one optional field per
	// eventdata payload type (hook, context, todo, review, mode,
	// snapshots, notification); generated, so a new payload type needs no
	// field written here.
	Payloads
}

// ModeGetParams asks for the session's mode record.
type ModeGetParams struct {
	SessionID string `json:"sessionId"`
}

type ToolEvent struct {
	CallID     string `json:"callId"`
	Name       string `json:"name"`
	Arguments  string `json:"arguments,omitempty"`
	Summary    string `json:"summary,omitempty"`
	OK         bool   `json:"ok"`
	Output     string `json:"output,omitempty"`
	DurationMs int64  `json:"durationMs,omitempty"`
	// Meta is tool-specific UI data (shell result, applied-edit paths).
	Meta any `json:"meta,omitempty"`
	// Display, when set, is the result as the user should read it, in
	// their language (a refusal GoVibe worded for them); Output is what
	// the model read.
	Display string `json:"display,omitempty"`
}

// ErrorInfo is a human-readable error; Action names a remedy the UI can
// offer as a button ("setApiKey", "openSettings", "showLogs", "continue").
type ErrorInfo struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	Action  string `json:"action,omitempty"`
}
