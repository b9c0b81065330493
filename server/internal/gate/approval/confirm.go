package approval

import "github.com/govibe/govibe/server/internal/agent/review/reviewers"

// Confirm is a question parked for the user: an edit, a shell command, an
// MCP call or an ask_human question (the engine asks those).
type Confirm struct {
	ID           string          `json:"id"`
	SessionID    string          `json:"sessionId"`
	TurnID       string          `json:"turnId"`
	ToolCallID   string          `json:"toolCallId"`
	Kind         string          `json:"kind"` // edit|shell|question|tool|fetch
	Path         string          `json:"path,omitempty"`
	RelPath      string          `json:"relPath,omitempty"`
	Original     string          `json:"original,omitempty"`
	Proposed     string          `json:"proposed,omitempty"`
	IsNew        bool            `json:"isNew,omitempty"`
	Delete       bool            `json:"delete,omitempty"`
	AutoAcceptMs int             `json:"autoAcceptMs,omitempty"`
	Command      string          `json:"command,omitempty"`
	Cwd          string          `json:"cwd,omitempty"`
	Analysis     *ShellAnalysis  `json:"analysis,omitempty"`
	Review       *reviewers.Card `json:"review,omitempty"`
	Question     string          `json:"question,omitempty"`
	Options      []string        `json:"options,omitempty"`
	// DialogID and Thread place an ask_human question in its dialog:
	// the earlier exchanges, oldest first (package dialogs, dialog.go).
	DialogID string             `json:"dialogId,omitempty"`
	Thread   []QuestionExchange `json:"thread,omitempty"`
	// Server and Tool name an MCP call (kind tool); Command holds the
	// namespaced name and Question its JSON arguments.
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// URL and Headers (names only) describe a web fetch (kind fetch).
	URL     string   `json:"url,omitempty"`
	Headers []string `json:"headers,omitempty"`
	// AllowRules are the user allow rules "Always allow" would write.
	AllowRules []string `json:"allowRules,omitempty"`
	// Notice is a line the card shows about what the proposal does beyond
	// itself (the edit that creates the project memory), translated.
	Notice string `json:"notice,omitempty"`
}

// QuestionExchange is one answered question of an ask_human dialog.
type QuestionExchange struct {
	Question string `json:"question"`
	Reply    string `json:"reply"`
}

// ShellAnalysis is the static classification shown with a command.
type ShellAnalysis struct {
	Class   string   `json:"class"`
	Reasons []string `json:"reasons"`
}

// Answer is the user's decision.
type Answer struct {
	Accept        bool    `json:"accept"`
	Reason        string  `json:"reason,omitempty"`
	Content       *string `json:"content,omitempty"`
	Applied       bool    `json:"applied,omitempty"`
	RejectedHunks []int   `json:"rejectedHunks,omitempty"`
	Command       string  `json:"command,omitempty"`
	Answer        string  `json:"answer,omitempty"`
	// AlwaysAllow writes the confirmation's AllowRules (accept only).
	AlwaysAllow bool `json:"alwaysAllow,omitempty"`
}
