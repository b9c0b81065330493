package store

import (
	"context"
	"errors"
	"testing"
)

// An engine-written user message keeps its origin through BeginTurn,
// reads, export and import: the UI tells it from the person's words
// after a reload as it did live.
func TestMessageOriginIsKeptAndExported(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sid := mustSession(t, s, NewSession{Title: "plan"}).ID
	ids, w, err := s.BeginTurn(ctx, sid, "[scheduler] Every todo item has been handled.", TurnOptions{Origin: OriginPlanFinal})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.BeginTurn(ctx, sid, "typed by a person", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := s.GetMessage(ctx, ids.UserMessageID)
	if err != nil || m.Origin != OriginPlanFinal {
		t.Fatalf("origin %q, err %v", m.Origin, err)
	}
	page, err := s.LoadMessages(ctx, sid, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var origins []string
	for _, m := range page.Messages {
		if m.Role == RoleUser {
			origins = append(origins, m.Origin)
		}
	}
	if len(origins) != 2 || origins[0] != OriginPlanFinal || origins[1] != OriginUser {
		t.Fatalf("origins %q", origins)
	}
	doc, err := s.Export(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	imported, err := s.Import(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	page, err = s.LoadMessages(ctx, imported.ID, 0, 10)
	if err != nil || page.Messages[0].Origin != OriginPlanFinal {
		t.Fatalf("imported origin %+v, err %v", page.Messages[0], err)
	}
}

func TestMessageOriginRefusesUnknownOrNonUser(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sid := mustSession(t, s, NewSession{}).ID
	for _, nm := range []NewMessage{
		{Role: RoleUser, Origin: "robot", Parts: []Part{{Kind: PartText, Text: "x"}}},
		{Role: RoleAssistant, Origin: OriginPlanStep, Parts: []Part{{Kind: PartText, Text: "x"}}},
	} {
		if _, err := s.AppendMessage(ctx, sid, nm); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%+v: err %v, want ErrInvalid", nm, err)
		}
	}
	if n := countRows(t, s, "messages", "session_id = ?", sid); n != 0 {
		t.Fatalf("%d messages stored", n)
	}
}

// A child session remembers where in its parent it ran, and SubagentRuns
// finds the sub-agents (never the reviewers) of the given messages.
func TestSubagentRunsByParentMessage(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	parent := mustSession(t, s, NewSession{Title: "p"}).ID
	a := mustSession(t, s, NewSession{ParentID: parent, Kind: KindSubagent, Hidden: true, ParentMessageID: "m1", ParentCallID: "c1"})
	b := mustSession(t, s, NewSession{ParentID: parent, Kind: KindSubagent, Hidden: true, ParentMessageID: "m2"})
	mustSession(t, s, NewSession{ParentID: parent, Kind: KindReviewer, Hidden: true, ParentMessageID: "m1"})
	mustSession(t, s, NewSession{ParentID: parent, Kind: KindSubagent, Hidden: true, ParentMessageID: "m9"})
	got, err := s.SubagentRuns(ctx, parent, []string{"m1", "m2", "m3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != a.ID || got[1].ID != b.ID || got[0].ParentCallID != "c1" || got[0].ParentMessageID != "m1" {
		t.Fatalf("runs %+v", got)
	}
	if got, err := s.SubagentRuns(ctx, parent, nil); err != nil || len(got) != 0 {
		t.Fatalf("no ids: %v %v", got, err)
	}
	if _, err := s.SubagentRuns(ctx, parent, make([]string, 1001)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("too many ids: %v", err)
	}
	if _, err := s.CreateSession(ctx, NewSession{ParentMessageID: "m1"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("anchor without parent: %v", err)
	}
}
