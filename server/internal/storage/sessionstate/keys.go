package sessionstate

import (
	"encoding/json"
	"strconv"
)

// The per-session state keys whose values belong to no single capability,
// with the type of each value. A capability's own state is declared in its
// package with NewKey (the todo plan in scheduler, the mode and its runs
// in modes, the plan reviewer's state in review). The names are
// what databases and session exports hold: renaming one means keeping the
// old name in legacy (read as a fallback, removed on the next write).
var (
	// Turns counts the session's user turns (the last turn's number).
	Turns = NewKey[int]("turns")
	// EditEnabled is the 🔓/🔒 toggle; absent means on. Earlier builds
	// stored it as "editEnabled" (while the store declared an unused
	// "edit_toggle"); databases and exports may still hold that name.
	EditEnabled = NewKey[bool]("edit_enabled", "editEnabled")
	// BTW is present while a side conversation lasts.
	BTW = NewKey[BTWState]("btw")
	// ShellRuns are the approved shell commands the anti-repeat check
	// compares with (newest last).
	ShellRuns = NewKey[[]ShellRun]("shell.runs")
	// Compactions are the session's compaction attempts, oldest first.
	Compactions = NewKey[[]CompactionRecord]("compactions")
	// CompactGuard stops automatic compaction from looping after a failure.
	CompactGuard = NewKey[CompactGuardState]("compact_guard")
	// ActiveSkills are the skills activated for the session, in order.
	ActiveSkills = NewKey[[]string]("skills.active")
	// Model is the session's /model choice (a profile or model name).
	Model = NewKey[string]("model")
	// ContextFiles are the context files last sent to the model (what a
	// change notice compares with); absent before the first message.
	ContextFiles = NewKey[[]SentContextFile]("context_files")
	// Extras maps a user message's id to the context files and
	// mention attachments sent with it, so a reopened session shows them.
	Extras = NewKey[map[string]MessageExtras]("message_extras")
	// MemoryReminder lists the files a turn changed that the project
	// memory's L2 inventory does not list; the next context block names
	// them once.
	MemoryReminder = NewKey[[]string]("memory.reminder")
	// TurnLimits are the model and allowed tools of the custom command
	// that started the session's latest turn (absent when none did), so a
	// run of that turn resumed by another process keeps them.
	TurnLimits = NewKey[TurnLimitsState]("turn.limits")
	// Usage is the session's accounting (package usage decodes it).
	// Written after every model request, so relaxed (see Key).
	Usage = relaxedKey[json.RawMessage]("usage")
	// TurnSnapshots maps each turn (by id, its user message's id) to the
	// snapshot of each root holding the workspace as it was before it.
	TurnSnapshots = NewKey[map[string][]TurnSnapshot]("turnSnapshots")
	// RolledBackTurns are the turns (by id) rolled back from the chat:
	// their user message no longer offers "Roll back to before this turn".
	RolledBackTurns = NewKey[map[string]bool]("turnsRolledBack")
	// RetriedTurns are the failed turns (by id) a Retry replaced: the
	// transcript no longer shows them.
	RetriedTurns = NewKey[map[string]bool]("turnsRetried")
	// HookContext is what SessionStart hooks added, waiting for the
	// session's first message (which takes and removes it).
	HookContext = NewKey[string]("hooks.sessionContext")
)

// TurnLimitsState is a custom command's frontmatter limits for one turn.
type TurnLimitsState struct {
	TurnID  string   `json:"turnId"`
	Model   string   `json:"model,omitempty"`
	Allowed []string `json:"allowed,omitempty"`
}

// TurnSnapshot is the snapshot of one root taken before a turn.
type TurnSnapshot struct {
	Root string `json:"root"`
	ID   string `json:"id"`
}

// TurnUsage is what turn n consumed (package usage decodes it).
func TurnUsage(n int) Key[json.RawMessage] {
	return Key[json.RawMessage]{name: "usage/turn/" + strconv.Itoa(n), relaxed: true}
}

// MessageExtras is what the UI shows under a user message.
type MessageExtras struct {
	ContextFiles []string           `json:"contextFiles,omitempty"`
	Attachments  []AttachmentRecord `json:"attachments,omitempty"`
}

// AttachmentRecord is one mention's expansion as shown (not its content).
type AttachmentRecord struct {
	Kind      string `json:"kind"`
	Raw       string `json:"raw"`
	Chars     int    `json:"chars"`
	Truncated bool   `json:"truncated,omitempty"`
	Error     string `json:"error,omitempty"`
}

// SentContextFile identifies a context file as it was sent.
type SentContextFile struct {
	Root string `json:"root"`
	Rel  string `json:"rel"`
	Hash string `json:"hash"`
}

// BTWState is persisted per session while a side conversation lasts.
type BTWState struct {
	Active bool `json:"active"`
	// Start is the length of the model track when it began: everything
	// from here on belongs to the side conversation.
	Start int `json:"start"`
}

// ShellRun is one approved command and the workspace it ran over.
type ShellRun struct {
	Key string `json:"k"`
	FP  string `json:"fp"`
}

// CompactionRecord is the persisted trace of one compaction attempt; the
// divider message it names shows its summary.
type CompactionRecord struct {
	Time      int64  `json:"time"`
	Trigger   string `json:"trigger"`
	Status    string `json:"status"` // done|failed
	Reason    string `json:"reason,omitempty"`
	MessageID string `json:"messageId"`
	Messages  int    `json:"messages"`
	Before    int    `json:"before"`
	After     int    `json:"after"`
	Saved     int    `json:"saved"`
	// Shortened is what shortening a dominant tool result saved (part of Saved).
	Shortened   int  `json:"shortened,omitempty"`
	Truncated   bool `json:"truncated,omitempty"`
	RequestSent int  `json:"requestTokens,omitempty"`
	// Kept is what was re-sent word for word after the summary.
	Kept *CompactionKept `json:"kept,omitempty"`
}

// CompactionKept counts what a compaction re-sent word for word after its
// summary (compact.KeptCounts, which converts to it).
type CompactionKept struct {
	Request   bool `json:"request,omitempty"`
	Todos     int  `json:"todos,omitempty"`
	TodosDone int  `json:"todosDone,omitempty"`
	Decisions int  `json:"decisions,omitempty"`
}

// CompactGuardState makes automatic compaction retry only once the
// context has grown past RetryAbove.
type CompactGuardState struct {
	RetryAbove int `json:"retryAbove"`
}
