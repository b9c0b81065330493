package engine

import (
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/model/llm"
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
	BTW bool
	// Extras (kinds.Message) are the user message's context files and
	// attachments, as package turninput assembled them.
	Extras *turninput.Extras
	// Divider (kinds.Compaction) is what the compaction attempt did: the
	// edge builds the divider message from it as session/load returns it.
	Divider *compaction.Info
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

// The methods below are what eventbus.Bus needs of an event
// (eventbus.Event): the bus stays generic, so Event and its payloads stay
// the engine's vocabulary.

// BusSession is the session whose stream the event belongs to.
func (e *Event) BusSession() string { return e.SessionID }

// BusSeq is the seq the bus stamped.
func (e *Event) BusSeq() int64 { return e.Seq }

// SetBusSeq stamps e with seq.
func (e *Event) SetBusSeq(seq int64) { e.Seq = seq }

// Continues reports whether e is a delta of the same message, turn and
// agent as prev, of the same kind: a slow subscriber has it appended to
// prev. Terminal events (anything but a text or reasoning delta) are never
// merged or dropped.
func (e *Event) Continues(prev *Event) bool {
	delta := e.Kind == kinds.TextDelta || e.Kind == kinds.ReasoningDelta
	return delta && prev.Kind == e.Kind && prev.SessionID == e.SessionID &&
		prev.MessageID == e.MessageID && prev.TurnID == e.TurnID && prev.SubAgentTag == e.SubAgentTag
}

// DeltaText is the text a delta adds.
func (e *Event) DeltaText() string { return e.Text }

// SetDeltaText replaces e's text (with the deltas merged into it).
func (e *Event) SetDeltaText(text string) { e.Text = text }
