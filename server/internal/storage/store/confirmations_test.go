package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// CallDecisions lists the answered confirmations of tool calls, newest
// limit oldest first, without edit contents, and counts the older ones.
func TestCallDecisionsListsAnsweredCallsWithoutContents(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sid := mustSession(t, s, NewSession{Title: "t", Kind: KindChat}).ID
	ask := func(kind, call string, payload string) string {
		c, err := s.CreateConfirmation(ctx, sid, NewConfirmation{Kind: kind, ToolCallID: call, Payload: json.RawMessage(payload)})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	for i := 0; i < 4; i++ {
		id := ask("edit", fmt.Sprintf("c%d", i), fmt.Sprintf(`{"kind":"edit","relPath":"f%d.go","original":"OLD","proposed":"NEW"}`, i))
		st := ConfirmApproved
		if i%2 == 1 {
			st = ConfirmRejected
		}
		if err := s.ResolveConfirmation(ctx, id, st, json.RawMessage(`{"accept":true,"content":"EDITED","reason":"why"}`)); err != nil {
			t.Fatal(err)
		}
	}
	ask("shell", "pending", `{"kind":"shell"}`) // not answered
	budget := ask("question", "", `{"kind":"question","question":"budget?"}`)
	if err := s.ResolveConfirmation(ctx, budget, ConfirmApproved, json.RawMessage(`{"accept":true}`)); err != nil {
		t.Fatal(err)
	}
	cancelled := ask("shell", "gone", `{"kind":"shell"}`)
	if err := s.ResolveConfirmation(ctx, cancelled, ConfirmCancelled, nil); err != nil {
		t.Fatal(err)
	}
	got, older, err := s.CallDecisions(ctx, sid, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || older != 1 {
		t.Fatalf("%d decisions, %d older; want 3 and 1", len(got), older)
	}
	for i, c := range got {
		if c.ToolCallID != fmt.Sprintf("c%d", i+1) {
			t.Fatalf("decision %d is %s: want the newest three, oldest first", i, c.ToolCallID)
		}
		if strings.Contains(string(c.Payload), "OLD") || strings.Contains(string(c.Payload), "NEW") || strings.Contains(string(c.Response), "EDITED") {
			t.Fatalf("contents read back: %s %s", c.Payload, c.Response)
		}
		if !strings.Contains(string(c.Payload), fmt.Sprintf(`"f%d.go"`, i+1)) || !strings.Contains(string(c.Response), `"why"`) {
			t.Fatalf("decision lost its subject or reason: %s %s", c.Payload, c.Response)
		}
	}
	if got[1].Status != ConfirmApproved || got[0].Status != ConfirmRejected {
		t.Fatalf("statuses %s %s", got[0].Status, got[1].Status)
	}
}
