package server

import (
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
)

func engineEvent(kind kinds.Kind) engine.Event { return engine.Event{SessionID: "s", Kind: kind} }

func TestEveryEngineEventKindConverts(t *testing.T) {
	for _, k := range kinds.All {
		if got := toChatEvent(engineEvent(k)).Kind; got != k {
			t.Errorf("%s converted to %s", k, got)
		}
	}
}

// The user message and the pending reply a turn or plan step opens carry
// its agent's tag, as session/load returns them, so the chat groups a
// step's rows while it runs.
func TestOpenedMessagesCarryTheirTag(t *testing.T) {
	for _, k := range []kinds.Kind{kinds.Message, kinds.TurnStarted} {
		got := toChatEvent(engine.Event{Kind: k, SessionID: "s", TurnID: "t", MessageID: "m", SubAgentTag: "executor:2"})
		if got.Message == nil || got.Message.SubAgentTag != "executor:2" {
			t.Errorf("%s: message %+v, want the tag executor:2", k, got.Message)
		}
	}
}
