package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/test/filled"
)

// Every payload type the engine can publish reaches the wire under its own
// field, unchanged: the event's JSON holds the payload's JSON at
// p.Field(), and nothing else of the payload set.
func TestEveryPayloadReachesTheWire(t *testing.T) {
	for _, zero := range eventdata.All {
		p := filledPayload(t, zero)
		w := toChatEvent(engine.Event{SessionID: "s", Kind: kinds.Usage, Payload: p})
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(p)
		if got := fields[p.Field()]; string(got) != string(want) {
			t.Errorf("%T: wire field %q is %s, want %s", p, p.Field(), got, want)
		}
		for _, other := range eventdata.All {
			if other.Field() != p.Field() && fields[other.Field()] != nil {
				t.Errorf("%T also filled %q", p, other.Field())
			}
		}
	}
}

// The envelope's message pieces: a user message's extras and a
// compaction's divider become the event's message.
func TestMessageEventsCarryTheirExtrasAndDivider(t *testing.T) {
	w := toChatEvent(engine.Event{SessionID: "s", Kind: kinds.Message, Extras: &turninput.Extras{ContextFiles: []string{"AGENTS.md"}}})
	if w.Message == nil || len(w.Message.ContextFiles) != 1 {
		t.Errorf("extras: %+v", w.Message)
	}
	w = toChatEvent(engine.Event{SessionID: "s", Kind: kinds.Compaction, Divider: &compaction.Info{MessageID: "m", Notice: "n"},
		Payload: eventdata.ContextUse{UsedTokens: 7}})
	if w.Message == nil || w.Message.ID != "m" || w.Context == nil || w.Context.UsedTokens != 7 {
		t.Errorf("compaction: %+v", w)
	}
}

// filledPayload returns zero with every field set to something non-zero, so a
// field the wire dropped would show.
func filledPayload(t *testing.T, zero eventdata.Payload) eventdata.Payload {
	v := reflect.New(reflect.TypeOf(zero)).Elem()
	filled.Fill(v)
	p, ok := v.Interface().(eventdata.Payload)
	if !ok {
		t.Fatalf("%T", zero)
	}
	return p
}
