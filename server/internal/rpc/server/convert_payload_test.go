package server

import (
	"testing"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/engine"
)

// Every payload the engine sends reaches its wire field. The compiler
// already refuses a payload type without a converter (wirePayload must be
// an engine.PayloadSink); this checks that each converter fills its field.
func TestEveryPayloadReachesTheWire(t *testing.T) {
	progress := modes.Progress{State: modes.Done}
	cases := []struct {
		name    string
		ev      engine.Event
		present func(protocol.ChatEvent) bool
	}{
		{"extras", engine.Event{Kind: kinds.Message, Payload: engine.UserExtras{ContextFiles: []string{"AGENTS.md"}}},
			func(w protocol.ChatEvent) bool { return w.Message != nil && len(w.Message.ContextFiles) == 1 }},
		{"hook", engine.Event{Kind: kinds.Hook, Payload: engine.HookPayload{Command: "echo"}},
			func(w protocol.ChatEvent) bool { return w.Hook != nil && w.Hook.Command == "echo" }},
		{"context", engine.Event{Kind: kinds.Usage, Payload: engine.ContextPayload{UsedTokens: 7}},
			func(w protocol.ChatEvent) bool { return w.Context != nil && w.Context.UsedTokens == 7 }},
		{"todo", engine.Event{Kind: kinds.Todo, Payload: engine.TodoPayload{Goal: "g"}},
			func(w protocol.ChatEvent) bool { return w.Todo != nil }},
		{"compaction", engine.Event{Kind: kinds.Compaction, Payload: engine.CompactionInfo{Info: compaction.Info{MessageID: "m"}}},
			func(w protocol.ChatEvent) bool { return w.Context != nil && w.Message != nil && w.Message.ID == "m" }},
		{"review", engine.Event{Kind: kinds.Review, Payload: engine.ReviewPayload{Card: &reviewers.Card{Kind: "plan"}}},
			func(w protocol.ChatEvent) bool { return w.Review != nil && w.Review.Kind == "plan" }},
		{"mode switch", engine.Event{Kind: kinds.Mode, Payload: engine.ModePayload{Switched: modes.Phases}},
			func(w protocol.ChatEvent) bool { return w.Mode != nil && w.Mode.Mode == string(modes.Phases) }},
		{"phases", engine.Event{Kind: kinds.Mode, Payload: engine.ModePayload{Phases: &progress}},
			func(w protocol.ChatEvent) bool { return w.Mode != nil && w.Mode.State == string(modes.Done) }},
		{"reconcile", engine.Event{Kind: kinds.Mode, Payload: engine.ModePayload{Reconcile: &moderun.ReconcileView{}}},
			func(w protocol.ChatEvent) bool { return w.Mode != nil && w.Mode.Reconcile != nil }},
		{"snapshots", engine.Event{Kind: kinds.Snapshots, Payload: engine.SnapshotsPayload{{Root: "/r", ID: "s"}}},
			func(w protocol.ChatEvent) bool { return len(w.Snapshots) == 1 }},
		{"notification", engine.Event{Kind: kinds.Notification, Payload: engine.Notification{Severity: "info", Message: "hi"}},
			func(w protocol.ChatEvent) bool { return w.Notification != nil && w.Notification.Message == "hi" }},
	}
	for _, c := range cases {
		c.ev.SessionID = "s"
		if w := toChatEvent(c.ev); !c.present(w) {
			t.Errorf("%s: the payload did not reach the wire: %+v", c.name, w)
		}
	}
}
