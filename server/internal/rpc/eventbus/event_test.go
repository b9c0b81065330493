package eventbus

import (
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/test/goimports"
)

// event is the tests' event: the fields the bus reads, with the engine's
// rules (engine.Event): text and reasoning deltas continue the queued delta
// of the same session, message, turn and agent; every other kind is
// terminal. engine's TestEventContinuesOnlyItsOwnDelta checks the real one.
type event struct {
	SessionID   string
	Seq         int64
	TurnID      string
	Kind        kinds.Kind
	MessageID   string
	SubAgentTag string
	Text        string
}

func (e *event) BusSession() string       { return e.SessionID }
func (e *event) BusSeq() int64            { return e.Seq }
func (e *event) SetBusSeq(seq int64)      { e.Seq = seq }
func (e *event) DeltaText() string        { return e.Text }
func (e *event) SetDeltaText(text string) { e.Text = text }

func (e *event) Continues(prev *event) bool {
	delta := e.Kind == kinds.TextDelta || e.Kind == kinds.ReasoningDelta
	return delta && prev.Kind == e.Kind && prev.SessionID == e.SessionID &&
		prev.MessageID == e.MessageID && prev.TurnID == e.TurnID && prev.SubAgentTag == e.SubAgentTag
}

// TestIsALeaf keeps the bus below the engine: it is generic over the event,
// so nothing here may import another package of GoVibe (the engine's Event
// and its payloads stay the engine's).
func TestIsALeaf(t *testing.T) {
	ims, err := goimports.Internal(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range ims {
		t.Errorf("%s imports %s: the bus asks what it needs of an event through the Event constraint", im.File, im.Path)
	}
}
