package server

import (
	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// wirePayload puts an event's payload on its chat/event. It implements
// engine.PayloadSink, so a payload type the engine adds fails to compile
// here until it has its conversion: none is dropped silently.
type wirePayload struct {
	e engine.Event
	w *protocol.ChatEvent
}

var _ engine.PayloadSink = wirePayload{}

func (c wirePayload) UserExtras(pl engine.UserExtras) {
	if c.w.Message != nil {
		setExtras(c.w.Message, turninput.Extras(pl))
	}
}

func (c wirePayload) Hook(pl engine.HookPayload) {
	c.w.Hook = &protocol.HookRun{Event: string(pl.Event), Command: pl.Command, Source: pl.Source, ExitCode: pl.ExitCode,
		DurationMs: pl.DurationMs, Result: pl.Result, Note: pl.Note}
}

func (c wirePayload) Context(pl engine.ContextPayload) { c.w.Context = toContextUse(usage.Context(pl)) }

func (c wirePayload) Todo(pl engine.TodoPayload) {
	p := scheduler.Plan(pl)
	c.w.Todo = toTodoState(&p)
}

func (c wirePayload) Compaction(pl engine.CompactionInfo) {
	c.w.Context = toContextUse(pl.Context)
	c.w.Message = compactionMessage(c.e, pl)
}

func (c wirePayload) Review(pl engine.ReviewPayload) { c.w.Review = toReviewCard(pl.Card) }

func (c wirePayload) Mode(pl engine.ModePayload) {
	switch {
	case pl.Phases != nil:
		c.w.Mode = toPhasesState(*pl.Phases)
	case pl.Reconcile != nil:
		r := toReconcileState(*pl.Reconcile)
		c.w.Mode = &protocol.ModeState{Mode: string(modes.Reconcile), State: r.Phase, Reconcile: r}
	default:
		// The session switched modes: the panel starts from an empty record.
		c.w.Mode = &protocol.ModeState{Mode: string(pl.Switched)}
	}
}

func (c wirePayload) Snapshots(pl engine.SnapshotsPayload) {
	c.w.Snapshots = toTurnSnapshots([]rollback.TurnSnapshot(pl))
}

func (c wirePayload) Notification(pl engine.Notification) {
	c.w.Notification = &protocol.Notification{Severity: pl.Severity, Message: pl.Message}
}
