package store

import (
	"context"
	"encoding/json"
	"testing"
)

// TestCancelPendingConfirmationsKeeps: start-up closes the confirmations
// whose tools died with the previous process, and leaves pending exactly
// those the engine resumes, across sessions.
func TestCancelPendingConfirmationsKeeps(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	a := mustSession(t, s, NewSession{Title: "a"})
	b := mustSession(t, s, NewSession{Title: "b"})
	mk := func(sid, call string) Confirmation {
		c, err := s.CreateConfirmation(ctx, sid, NewConfirmation{ToolCallID: call, Kind: "edit", Payload: json.RawMessage(`{"path":"x"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	keepA, dropA, dropB, keepB := mk(a.ID, "c1"), mk(a.ID, "c2"), mk(b.ID, "c3"), mk(b.ID, "c4")
	if err := s.ResolveConfirmation(ctx, dropB.ID, ConfirmApproved, json.RawMessage(`{"accept":true}`)); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenConfirmations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 3 || open[0].ID != keepA.ID || open[1].ID != dropA.ID || open[2].ID != keepB.ID || open[2].ToolCallID != "c4" {
		t.Fatalf("open confirmations, oldest first: %+v", open)
	}
	if string(open[0].Payload) != `{"path":"x"}` || open[0].SessionID != a.ID {
		t.Fatalf("payload or session lost: %+v", open[0])
	}
	if err := s.CancelPendingConfirmations(ctx, keepA.ID, keepB.ID); err != nil {
		t.Fatal(err)
	}
	open, _ = s.OpenConfirmations(ctx)
	if len(open) != 2 || open[0].ID != keepA.ID || open[1].ID != keepB.ID {
		t.Fatalf("after cancelling all but two: %+v", open)
	}
	all, _ := s.PendingConfirmations(ctx, a.ID)
	if len(all) != 1 || all[0].ID != keepA.ID {
		t.Fatalf("session a pending: %+v", all)
	}
	// The answered one keeps its answer; the dropped one is closed.
	if n := countRows(t, s, "confirmations", "id = ? AND status = 'approved'", dropB.ID); n != 1 {
		t.Fatal("an answered confirmation was rewritten")
	}
	if n := countRows(t, s, "confirmations", "id = ? AND status = 'cancelled'", dropA.ID); n != 1 {
		t.Fatal("the confirmation not kept is still open")
	}
	if err := s.CancelPendingConfirmations(ctx); err != nil {
		t.Fatal(err)
	}
	if open, _ = s.OpenConfirmations(ctx); len(open) != 0 {
		t.Fatalf("without keep, every confirmation closes: %+v", open)
	}
}
