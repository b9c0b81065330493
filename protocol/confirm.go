package protocol

// Confirmation kinds.
const (
	ConfirmEdit     = "edit"
	ConfirmShell    = "shell"
	ConfirmQuestion = "question"
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
}

// ConfirmClosed tells the client a request is no longer answerable
// (resolved elsewhere, or the turn was cancelled), so it closes its diff.
type ConfirmClosed struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}
