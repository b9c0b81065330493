package store

import (
	"context"
	"encoding/json"
	"testing"
)

// TestCancelConfirmationOnlyFromItsOwner: start-up closes the confirmations
// whose tools died with their process, one by one and only while that
// process still owns them: one answered or claimed meanwhile is left alone.
func TestCancelConfirmationOnlyFromItsOwner(t *testing.T) {
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
	keepA, dropA, answered, keepB := mk(a.ID, "c1"), mk(a.ID, "c2"), mk(b.ID, "c3"), mk(b.ID, "c4")
	if err := s.ResolveConfirmation(ctx, answered.ID, ConfirmApproved, json.RawMessage(`{"accept":true}`)); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenConfirmations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 3 || open[0].ID != keepA.ID || open[1].ID != dropA.ID || open[2].ID != keepB.ID || open[2].ToolCallID != "c4" {
		t.Fatalf("open confirmations, oldest first: %+v", open)
	}
	if string(open[0].Payload) != `{"path":"x"}` || open[0].SessionID != a.ID || open[0].Owner != s.Owner() || s.Owner() == "" {
		t.Fatalf("payload, session or owner lost: %+v (owner %q)", open[0], s.Owner())
	}
	if ok, err := s.CancelConfirmation(ctx, dropA.ID, "someone-else"); ok || err != nil {
		t.Fatalf("cancelled a confirmation another owner holds: %v %v", ok, err)
	}
	if ok, err := s.CancelConfirmation(ctx, dropA.ID, s.Owner()); !ok || err != nil {
		t.Fatalf("CancelConfirmation = %v, %v", ok, err)
	}
	if ok, _ := s.CancelConfirmation(ctx, answered.ID, s.Owner()); ok {
		t.Fatal("an answered confirmation was cancelled")
	}
	open, _ = s.OpenConfirmations(ctx)
	if len(open) != 2 || open[0].ID != keepA.ID || open[1].ID != keepB.ID {
		t.Fatalf("after cancelling one: %+v", open)
	}
	all, _ := s.PendingConfirmations(ctx, a.ID)
	if len(all) != 1 || all[0].ID != keepA.ID {
		t.Fatalf("session a pending: %+v", all)
	}
	if n := countRows(t, s, "confirmations", "id = ? AND status = 'approved'", answered.ID); n != 1 {
		t.Fatal("an answered confirmation was rewritten")
	}
	if n := countRows(t, s, "confirmations", "id = ? AND status = 'cancelled'", dropA.ID); n != 1 {
		t.Fatal("the cancelled confirmation is still open")
	}
}
