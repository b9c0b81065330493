package protocol

// Confirmation kinds.
const (
	ConfirmEdit     = "edit"
	ConfirmShell    = "shell"
	ConfirmQuestion = "question"
	ConfirmTool     = "tool"
	ConfirmFetch    = "fetch"
)

// ConfirmRequest is sent as confirm/requested and repeated in session/load
// until resolved. The tool waiting on it is parked on the server; the
// client answers with confirm/resolve, so the read loop never blocks.
type ConfirmRequest struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionId"`
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Kind       string `json:"kind"`
	// Edit
	Path     string `json:"path,omitempty"`
	RelPath  string `json:"relPath,omitempty"`
	Original string `json:"original,omitempty"`
	Proposed string `json:"proposed,omitempty"`
	IsNew    bool   `json:"isNew,omitempty"`
	Delete   bool   `json:"delete,omitempty"`
	// AutoAcceptMs > 0 starts a cancellable countdown in the UI.
	AutoAcceptMs int `json:"autoAcceptMs,omitempty"`
	// Shell
	Command  string         `json:"command,omitempty"`
	Cwd      string         `json:"cwd,omitempty"`
	Analysis *ShellAnalysis `json:"analysis,omitempty"`
	Review   *ReviewCard    `json:"review,omitempty"`
	// Question (ask_human)
	Question string   `json:"question,omitempty"`
	Options  []string `json:"options,omitempty"`
	// DialogID names the ask_human dialog the question is asked in: after
	// Send the dialog stays open (confirm/closed reason "replied") and the
	// agent's next question of the turn comes with the same DialogID and
	// the earlier exchanges in Thread, oldest first. Empty for other
	// questions (the plan reviewer's), which close on any answer.
	DialogID string             `json:"dialogId,omitempty"`
	Thread   []QuestionExchange `json:"thread,omitempty"`
	// Tool (an MCP call): Server and Tool name it (Tool as the server
	// calls it); Command carries the namespaced name mcp__server__tool and
	// Question its JSON arguments.
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Fetch (web_fetch): URL is the address, Headers the names of the
	// headers the request would send ("Cookie" for a cookie), never their
	// values.
	URL     string   `json:"url,omitempty"`
	Headers []string `json:"headers,omitempty"`
	// AllowRules are the user allow rules "Always allow" writes (shell:
	// Bash(go test:*) per sub-command; tool: mcp__server__tool; edit:
	// Edit(//abs/path) for the one file; fetch: WebFetch(domain:host)). Empty
	// means the card offers no "Always allow".
	AllowRules []string `json:"allowRules,omitempty"`
	// Notice is a line, already translated, the card shows above the
	// proposal: what it does beyond itself (an edit that creates the
	// project memory says so, and where). Empty for most cards.
	Notice string `json:"notice,omitempty"`
}

type ShellAnalysis struct {
	Class   string   `json:"class"` // read-only|mutating|dangerous
	Reasons []string `json:"reasons"`
}

// Decisions for confirm/resolve.
const (
	DecisionAccept = "accept"
	DecisionReject = "reject"
)

// ConfirmResolveParams answers a ConfirmRequest. For edits, Content (when
// set) is the final text the user accepted (accepted hunks, or their own
// modification); Applied says the editor already applied it through a
// WorkspaceEdit. For shell, Command may be an edited command.
type ConfirmResolveParams struct {
	ID       string  `json:"id"`
	Decision string  `json:"decision"`
	Reason   string  `json:"reason,omitempty"`
	Content  *string `json:"content,omitempty"`
	Applied  bool    `json:"applied,omitempty"`
	// RejectedHunks lists 1-based hunk numbers the user rejected.
	RejectedHunks []int  `json:"rejectedHunks,omitempty"`
	Command       string `json:"command,omitempty"`
	Answer        string `json:"answer,omitempty"`
	// AlwaysAllow (with accept) writes the request's AllowRules to the
	// user's always-allow rules; only those rules, never others.
	AlwaysAllow bool `json:"alwaysAllow,omitempty"`
}

// AllowRule is one user-level always-allow rule.
type AllowRule struct {
	Rule string `json:"rule"`
	// Added is when it was written (Unix milliseconds).
	Added int64 `json:"added"`
}

// PermissionsListResult lists the always-allow rules and where they live.
type PermissionsListResult struct {
	File  string      `json:"file"`
	Rules []AllowRule `json:"rules"`
	// Error names a malformed file (its rules do not apply).
	Error string `json:"error,omitempty"`
}

// PermissionsRevokeParams names a rule to remove.
type PermissionsRevokeParams struct {
	Rule string `json:"rule"`
}

// QuestionExchange is one answered question of an ask_human dialog.
type QuestionExchange struct {
	Question string `json:"question"`
	Reply    string `json:"reply"`
}

// OpenDialog is an ask_human dialog the user replied in (Send) that waits
// for the agent's follow-up: Question is its last question, already
// answered with Reply. session/load lists them so a reload shows them.
type OpenDialog struct {
	Question ConfirmRequest `json:"question"`
	Reply    string         `json:"reply"`
}

// Reasons of confirm/closed.
const (
	// ClosedResolved: answered; nothing of it stays open.
	ClosedResolved = "resolved"
	// ClosedCancelled: withdrawn (Stop, a timeout, the turn ended).
	ClosedCancelled = "cancelled"
	// ClosedReplied: a question answered with Send; its dialog stays
	// open, waiting for the agent's follow-up. confirm/resolve on that
	// question's id then closes the dialog (the user is done with it).
	ClosedReplied = "replied"
	// ClosedEnded: the open dialog of an already replied question closed
	// without a follow-up (its turn ended).
	ClosedEnded = "ended"
)

// ConfirmClosed tells the client a request is no longer answerable
// (resolved elsewhere, or the turn was cancelled), so it closes its diff;
// for a question, Reason says whether its dialog stays (see the Closed*
// reasons).
type ConfirmClosed struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}
