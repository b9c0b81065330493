// Package kinds is the vocabulary of chat event kinds, and nothing else. It
// is a leaf (no imports) so that both the wire contract (protocol) and the
// domain (engine) can share it without the engine importing wire types. The
// protocol generator turns All into the TypeScript union EventKind.
package kinds

// Kind names what a chat/event carries.
type Kind string

const (
	TurnStarted    Kind = "turnStarted"
	TextDelta      Kind = "textDelta"
	ReasoningDelta Kind = "reasoningDelta"
	// Retry: the stream broke and is retried; discard text streamed since
	// the last turnStarted/toolResult for this message.
	Retry        Kind = "retry"
	ToolCall     Kind = "toolCall"
	ToolResult   Kind = "toolResult"
	Notice       Kind = "notice"
	TurnFinished Kind = "turnFinished"
	Error        Kind = "error"
	Message      Kind = "message" // a whole message appended (user, notice)
	Todo         Kind = "todo"
	Review       Kind = "review"
	Compaction   Kind = "compaction"
	Usage        Kind = "usage"
	Title        Kind = "title"
	// Mode: a working mode's phase machine moved (Phases: state,
	// findings, plan, progress).
	Mode Kind = "mode"
	// Hook is a lifecycle hook's run (ChatEvent.hook).
	Hook Kind = "hook"
	// Snapshots: a turn's before-snapshots were taken (one per root); the
	// event's message is the turn's user message and its snapshots replace
	// that message's list. With status "rolledBack" the turn was rolled
	// back: the message no longer offers to roll it back.
	Snapshots Kind = "snapshots"
	// Notification: show_notification asks the editor to show a message
	// outside the chat (ChatEvent.notification). Live only: the tool's
	// card is what the transcript keeps.
	Notification Kind = "notification"
)

// All lists every kind, in the order the TypeScript union declares them.
var All = []Kind{
	TurnStarted, TextDelta, ReasoningDelta, Retry, ToolCall, ToolResult, Notice,
	TurnFinished, Error, Message, Todo, Review, Compaction, Usage, Title, Mode, Hook, Snapshots, Notification,
}
