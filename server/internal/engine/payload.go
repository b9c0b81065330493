package engine

import (
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// Payload is an event's kind-specific data. The set is closed (the method
// is unexported, so only the types below are payloads) and each type hands
// itself to its own PayloadSink method. The edge converts events by
// implementing PayloadSink, so a new payload type fails to compile there
// until it is converted: a payload can no longer be dropped silently, as a
// missing case of a type switch over `any` did.
//
// A new kind with data is: its name in protocol/kinds, a type here with
// its sendTo and sink method, and its case in the webview's reducer; the
// compiler then points at the edge's converter (server/convert_payload.go)
// and the wire field it fills (protocol.ChatEvent).
type Payload interface {
	sendTo(PayloadSink)
}

// PayloadSink receives an event's payload, one method per payload type.
type PayloadSink interface {
	UserExtras(UserExtras)
	Hook(HookPayload)
	Context(ContextPayload)
	Todo(TodoPayload)
	Compaction(CompactionInfo)
	Review(ReviewPayload)
	Mode(ModePayload)
	Snapshots(SnapshotsPayload)
	Notification(Notification)
}

// SendPayload hands e's payload, if it has one, to s.
func (e Event) SendPayload(s PayloadSink) {
	if e.Payload != nil {
		e.Payload.sendTo(s)
	}
}

// UserExtras is a user message's context files and attachments
// (kinds.Message), as package turninput assembled them.
type UserExtras turninput.Extras

// HookPayload is a lifecycle hook's run (kinds.Hook).
type HookPayload hooks.Run

// ContextPayload is the chat header's context bar, sent with kinds.Usage
// and with kinds.TurnFinished.
type ContextPayload usage.Context

// TodoPayload is the session's todo plan (kinds.Todo).
type TodoPayload scheduler.Plan

// ReviewPayload is a reviewer's card (kinds.Review).
type ReviewPayload struct{ Card *reviewers.Card }

// ModePayload is a working mode's panel (kinds.Mode): a switch, Phases'
// progress or a reconcile run.
type ModePayload moderun.Panel

// SnapshotsPayload lists a turn's before-snapshots, one per root
// (kinds.Snapshots); the event's MessageID is the turn's user message.
type SnapshotsPayload []rollback.TurnSnapshot

func (p UserExtras) sendTo(s PayloadSink)       { s.UserExtras(p) }
func (p HookPayload) sendTo(s PayloadSink)      { s.Hook(p) }
func (p ContextPayload) sendTo(s PayloadSink)   { s.Context(p) }
func (p TodoPayload) sendTo(s PayloadSink)      { s.Todo(p) }
func (p CompactionInfo) sendTo(s PayloadSink)   { s.Compaction(p) }
func (p ReviewPayload) sendTo(s PayloadSink)    { s.Review(p) }
func (p ModePayload) sendTo(s PayloadSink)      { s.Mode(p) }
func (p SnapshotsPayload) sendTo(s PayloadSink) { s.Snapshots(p) }
func (p Notification) sendTo(s PayloadSink)     { s.Notification(p) }
