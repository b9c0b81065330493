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
	Status  string      `json:"status,omitempty"`
	Usage   *Usage      `json:"usage,omitempty"`
	Tool    *ToolEvent  `json:"tool,omitempty"`
	Error   *ErrorInfo  `json:"error,omitempty"`
	Message *Message    `json:"message,omitempty"`
	Todo    *TodoState  `json:"todo,omitempty"`
	Review  *ReviewCard `json:"review,omitempty"`
	Context *ContextUse `json:"context,omitempty"`
	// Hook is a lifecycle hook's run (kind "hook").
	Hook *HookRun   `json:"hook,omitempty"`
	Mode *ModeState `json:"mode,omitempty"`
	// Snapshots are the turn's before-snapshots (EventSnapshots).
	Snapshots []TurnSnapshot `json:"snapshots,omitempty"`
	// Notification is show_notification's message (EventNotification).
	Notification *Notification `json:"notification,omitempty"`
}

// Notification is a message for the user outside the chat.
type Notification struct {
	// Severity is info, warning or error.
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// ModeState is a working mode's record for its panel (Phases mode:
// the codeCLI state, findings, plan and progress log; Reconcile mode:
// Reconcile).
type ModeState struct {
	Mode      string          `json:"mode"`
	State     string          `json:"state"`
	Findings  string          `json:"findings,omitempty"`
	Plan      []string        `json:"plan,omitempty"`
	Step      int             `json:"step"`
	Log       []string        `json:"log,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Reconcile *ReconcileState `json:"reconcile,omitempty"`
}

// ReconcileState is a reconcile run for its panel.
type ReconcileState struct {
	Name     string `json:"name"`
	Intent   string `json:"intent"`
	Approved bool   `json:"approved"`
	// Manifest is the manifest's JSON as its file holds it.
	Manifest string `json:"manifest"`
	// Phase is Pending|Reconciling|Ready|Failed (a run that gave up: CrashLoopBackOff, with the reason in LastError).
	Phase       string `json:"phase"`
	CurrentLoop int    `json:"currentLoop"`
	LastError   string `json:"lastError,omitempty"`
	// Step is the step to run next (specifier|coder|auditor).
	Step string `json:"step,omitempty"`
	// Agent is the scoped agent running now ("coder:3"), "" between steps.
	Agent   string `json:"agent,omitempty"`
	Running bool   `json:"running"`
	// Baseline is the failing-test count after the specifier; Diffs the
	// count after each loop.
	Baseline    int   `json:"baseline"`
	Diffs       []int `json:"diffs"`
	MaxLoops    int   `json:"maxLoops"`
	SpecRetries int   `json:"specRetries,omitempty"`
}

// ModeGetParams asks for the session's mode record.
type ModeGetParams struct {
	SessionID string `json:"sessionId"`
}

type Usage struct {
	PromptTokens     int64   `json:"promptTokens"`
	CompletionTokens int64   `json:"completionTokens"`
	CachedTokens     int64   `json:"cachedTokens"`
	Cost             float64 `json:"cost"`
	// CacheReportedTokens is the part of PromptTokens whose cache figure
	// the provider reported: the hit rate is CachedTokens over it, and
	// unknown (never 0%) when it is 0.
	CacheReportedTokens int64 `json:"cacheReportedTokens,omitempty"`
	// Priced says the model has prices; without them Cost is unknown and
	// only tokens are shown.
	Priced bool `json:"priced,omitempty"`
	// CacheMiss says why one request's prompt cache missed.
	CacheMiss *CacheMiss `json:"cacheMiss,omitempty"`
}

// CacheMiss is why a request lost (part of) the provider's prompt cache.
type CacheMiss struct {
	// Cause is compaction, tools_changed, system_changed, model_switched,
	// message_rewritten or provider_evicted.
	Cause  string `json:"cause"`
	Detail string `json:"detail,omitempty"`
	// Message is the first changed request message (0 is the system prompt).
	Message int `json:"message,omitempty"`
}

// ContextUse is the header bar: tokens used against the window.
type ContextUse struct {
	UsedTokens   int64   `json:"usedTokens"`
	WindowTokens int64   `json:"windowTokens"`
	SessionCost  float64 `json:"sessionCost"`
	SessionUsage Usage   `json:"sessionUsage"`
	// Profile names the session's own model choice (/model or the
	// header's pick), empty while the session follows govibe.model.
	Profile string `json:"profile,omitempty"`
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

type ReviewCard struct {
	Kind        string          `json:"kind"` // plan|edit|shell
	Approved    bool            `json:"approved"`
	Problems    []ReviewProblem `json:"problems,omitempty"`
	Suggestion  string          `json:"suggestion,omitempty"`
	DurationMs  int64           `json:"durationMs"`
	Unavailable string          `json:"unavailable,omitempty"`
}

type ReviewProblem struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
}
