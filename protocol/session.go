package protocol

// Message is one UI-track message with its parts.
type Message struct {
	ID            string `json:"id"`
	SessionID     string `json:"sessionId"`
	Seq           int64  `json:"seq"`
	TurnID        string `json:"turnId,omitempty"`
	Role          string `json:"role"`   // user|assistant|tool|event
	Status        string `json:"status"` // pending|done|error|cancelled
	SubAgentTag   string `json:"subAgentTag,omitempty"`
	HiddenFromLLM bool   `json:"hiddenFromLlm,omitempty"`
	BTW           bool   `json:"btw,omitempty"`
	// Origin, on a user message the engine wrote, says who: plan-step (a
	// todo agent's prompt), plan-resume, plan-final (the scheduler's
	// closing prompt), control (a button: Run plan, Resume, reconcile
	// Approve), subagent-task (a sub-agent's task). Empty: the person
	// typed it. The model reads both alike; the UI never shows an
	// engine's message as the user's words.
	Origin  string `json:"origin,omitempty"`
	Parts   []Part `json:"parts"`
	Usage   *Usage `json:"usage,omitempty"`
	Created int64  `json:"created"` // unix ms
	// ContextFiles (user messages; kept with the session) are the context
	// files (AGENTS.md, ...) sent to the model with this message.
	ContextFiles []string `json:"contextFiles,omitempty"`
	// Attachments (user messages; kept with the session) are the expansions of
	// the message's @mentions.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Snapshots, on a user message that starts a turn, are the snapshots
	// (one per root) holding the workspace as it was before the turn; a
	// turn that changed nothing has none. snapshot/restoreTurn uses them.
	Snapshots []TurnSnapshot `json:"snapshots,omitempty"`
}

// Part is a tagged union: Type is text|reasoning|tool_call|tool_result|notice.
type Part struct {
	Type       string `json:"type"`
	Text       string `json:"text,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Name       string `json:"name,omitempty"`
	Arguments  string `json:"arguments,omitempty"`
	Status     string `json:"status,omitempty"`
	OK         bool   `json:"ok,omitempty"`
	Output     string `json:"output,omitempty"`
	Level      string `json:"level,omitempty"`
	Meta       any    `json:"meta,omitempty"`
	// Display: see ToolEvent.Display (tool_result parts).
	Display string `json:"display,omitempty"`
	// DurationMs of a tool result: how long the tool ran.
	DurationMs int64 `json:"durationMs,omitempty"`
}

type SessionInfo struct {
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Created      int64   `json:"created"`
	Updated      int64   `json:"updated"`
	Model        string  `json:"model"`
	MessageCount int     `json:"messageCount"`
	Status       string  `json:"status"`
	Running      bool    `json:"running"`
	Cost         float64 `json:"cost,omitempty"`
}

type SessionListParams struct {
	Limit  int `json:"limit,omitempty"`
	Offset int `json:"offset,omitempty"`
}

type SessionListResult struct {
	Sessions []SessionInfo `json:"sessions"`
}

// SessionLoadParams pages backwards from BeforeSeq (0 = newest).
type SessionLoadParams struct {
	SessionID string `json:"sessionId"`
	BeforeSeq int64  `json:"beforeSeq,omitempty"`
	Limit     int    `json:"limit,omitempty"`
}

type SessionLoadResult struct {
	Session  SessionInfo `json:"session"`
	Messages []Message   `json:"messages"`
	HasMore  bool        `json:"hasMore"`
	// LastSeq is the newest chat/event seq of the session; live events
	// with a larger seq follow.
	LastSeq int64 `json:"lastSeq"`
	// RunningTurnID is set when a turn is still running.
	RunningTurnID string `json:"runningTurnId,omitempty"`
	// Pending confirmations that are still answerable.
	Pending []ConfirmRequest `json:"pending"`
	// Dialogs are ask_human dialogs replied in and waiting for the agent.
	Dialogs     []OpenDialog `json:"dialogs,omitempty"`
	Todo        *TodoState   `json:"todo,omitempty"`
	Context     *ContextUse  `json:"context,omitempty"`
	EditEnabled bool         `json:"editEnabled"`
	// Mode is the session's working mode (agent when never set).
	Mode string `json:"mode"`
	// ModeState is the mode's record for its panel (mode/get's answer).
	ModeState *ModeState `json:"modeState,omitempty"`
	// Interrupted is set when the session's last run was cut off by a
	// sidecar restart; the UI offers "Continue".
	Interrupted bool `json:"interrupted"`
	// SubAgents are the sub-agents (investigate, custom agents, the
	// browser, reconcile's specifier and coder) that ran while a message
	// of this page was open, oldest first. Their messages live in hidden
	// child sessions; the UI shows each as a collapsed group after the
	// call that started it, as it did live.
	SubAgents []SubAgentRun `json:"subAgents,omitempty"`
}

// SubAgentRun is one sub-agent's work, read from its child session.
type SubAgentRun struct {
	SessionID string `json:"sessionId"`
	// Tag groups its messages as live events did ("investigate",
	// "agent:<name>", "browser_sub_agent", "coder:3").
	Tag   string `json:"tag"`
	Title string `json:"title"`
	// AnchorMessageID is the page's message that was open when it ran;
	// CallID the tool call there that started it ("" for a reconcile
	// step, which follows the anchor).
	AnchorMessageID string `json:"anchorMessageId"`
	CallID          string `json:"callId,omitempty"`
	// Messages are the child's newest messages (at most 200).
	Messages []Message `json:"messages"`
	// Earlier counts the child's messages before Messages, left out of
	// the page: the client shows "N earlier messages hidden" and pages
	// them in with session/load on the child's id (beforeSeq: the seq of
	// Messages[0]).
	Earlier int `json:"earlier,omitempty"`
}

type SessionCreateParams struct {
	Title string `json:"title,omitempty"`
}

type SessionRenameParams struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
}

// SessionSetModelParams names the profile (from govibe.models) or model
// the session uses from its next request, as /model NAME does.
type SessionSetModelParams struct {
	SessionID string `json:"sessionId"`
	Model     string `json:"model"`
}

type SessionDeleteParams struct {
	SessionID string `json:"sessionId"`
}

type SessionSearchParams struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

type SessionSearchHit struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
	Title     string `json:"title"`
	Snippet   string `json:"snippet"`
}

type SessionSearchResult struct {
	Hits []SessionSearchHit `json:"hits"`
}

type SessionExportParams struct {
	SessionID string `json:"sessionId"`
}

// SessionExportResult carries the export document as opaque JSON.
type SessionExportResult struct {
	Document string `json:"document"`
}

type SessionImportParams struct {
	Document string `json:"document"`
}
