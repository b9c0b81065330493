package engine_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
)

// A send reads the session's mode from the store once: the turn's view
// answers every later question (the tools the mode narrows, where it
// stands, its stop, the plan proposal), so a mode switched mid-turn
// applies from the next turn and a turn costs one read, not one per
// question.
func TestSendReadsTheModeOnce(t *testing.T) {
	for _, mode := range []string{"agent", "plan", "phases"} {
		t.Run(mode, func(t *testing.T) {
			x := enginetest.New(t, nil)
			ctx := context.Background()
			s, err := x.E.Sessions.Create(ctx, "view")
			if err != nil {
				t.Fatal(err)
			}
			if err := x.E.Modes.Set(ctx, s.ID, mode); err != nil {
				t.Fatal(err)
			}
			reads := engine.CountStateReads(x.E, "mode")
			if _, _, err := x.E.Send(ctx, engine.SendParams{SessionID: s.ID, Text: "hello"}); err != nil {
				t.Fatal(err)
			}
			x.E.Wait(s.ID)
			if n := reads.Load(); n != 1 {
				t.Fatalf("the mode was read %d times in one send, want 1", n)
			}
		})
	}
}
