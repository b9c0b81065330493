package engine

import (
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/llm"
)

// Event is one entry of a session's ordered stream.
type Event struct {
	SessionID   string
	Seq         int64
	TurnID      string
	Kind        kinds.Kind
	MessageID   string
	SubAgentTag string
	Text        string
	Status      string
	Usage       *UsageInfo
	Tool        *ToolInfo
	Err         *ErrorInfo
	MessageSeq  int64 // for kinds.Message: the stored message's seq
	// Origin (kinds.Message): who wrote the user message, store.Origin*;
	// "" is the person.
	Origin string
	// BTW (kinds.Message, kinds.TurnStarted): the message belongs to a /btw
	// side conversation, so it is labelled "Side note" while live as
	// after a reload.
	BTW     bool
	Payload Payload // kind-specific data (todo state, review card); see payload.go
}

// UsageInfo is usage with cost.
type UsageInfo struct {
	llm.Usage // Cost included
}

// ToolInfo describes a tool call or its result.
type ToolInfo struct {
	CallID     string
	Name       string
	Arguments  string
	Summary    string
	OK         bool
	Output     string
	DurationMs int64
	Meta       any
	// Display is the result as a person reads it, in their language,
	// when it differs from Output (a refusal worded for them).
	Display string
}

// ErrorInfo is a human-readable error with an optional remedy.
type ErrorInfo struct {
	Message string
	Code    string
	Action  string // setApiKey|openSettings|showLogs|continue|pickModel
}

// terminal events are never dropped or merged by a slow subscriber.
func (e Event) terminal() bool {
	return e.Kind != kinds.TextDelta && e.Kind != kinds.ReasoningDelta
}
