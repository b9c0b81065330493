package engine

import (
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
)

// TestEventContinuesOnlyItsOwnDelta: the bus merges a queued delta only
// with the next delta of the same kind, session, message, turn and agent;
// every other kind is terminal, never merged (eventbus's tests run the bus
// on an event with these rules).
func TestEventContinuesOnlyItsOwnDelta(t *testing.T) {
	prev := Event{SessionID: "s", TurnID: "t", MessageID: "m", SubAgentTag: "a", Kind: kinds.TextDelta, Text: "x"}
	same := func(f func(*Event)) Event { e := prev; f(&e); return e }
	cases := []struct {
		name string
		prev Event
		e    Event
		want bool
	}{
		{"text delta", prev, same(func(e *Event) { e.Text = "y" }), true},
		{"reasoning delta", same(func(e *Event) { e.Kind = kinds.ReasoningDelta }), same(func(e *Event) { e.Kind = kinds.ReasoningDelta }), true},
		{"other kind of delta", prev, same(func(e *Event) { e.Kind = kinds.ReasoningDelta }), false},
		{"other session", prev, same(func(e *Event) { e.SessionID = "s2" }), false},
		{"other message", prev, same(func(e *Event) { e.MessageID = "m2" }), false},
		{"other turn", prev, same(func(e *Event) { e.TurnID = "t2" }), false},
		{"other agent", prev, same(func(e *Event) { e.SubAgentTag = "b" }), false},
	}
	for _, k := range []kinds.Kind{kinds.ToolCall, kinds.ToolResult, kinds.TurnFinished, kinds.Notice, kinds.Error, kinds.Message} {
		kp := same(func(e *Event) { e.Kind = k })
		cases = append(cases, struct {
			name string
			prev Event
			e    Event
			want bool
		}{"terminal " + string(k), kp, kp, false})
	}
	for _, c := range cases {
		if got := c.e.Continues(&c.prev); got != c.want {
			t.Errorf("%s: Continues = %v, want %v", c.name, got, c.want)
		}
	}
	e := prev
	e.SetBusSeq(7)
	e.SetDeltaText("xyz")
	if e.Seq != 7 || e.BusSeq() != 7 || e.Text != "xyz" || e.DeltaText() != "xyz" || e.BusSession() != "s" || prev.Seq != 0 || prev.Text != "x" {
		t.Errorf("stamping: %+v (from %+v)", e, prev)
	}
	_ = eventbus.New[Event]() // Event satisfies the bus's constraint
}
