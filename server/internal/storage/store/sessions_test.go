package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func TestListSessionsNewestFirstWithPaging(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	var ids []string
	for i := 0; i < 7; i++ {
		ids = append(ids, mustSession(t, s, NewSession{Title: fmt.Sprint("s", i), Model: "m"}).ID)
	}
	mustSession(t, s, NewSession{Title: "hidden", Hidden: true})
	mustSession(t, s, NewSession{Title: "child", ParentID: ids[0], Kind: KindSubagent})
	// Activity moves a session to the top.
	if _, err := s.AppendMessage(ctx, ids[2], NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "x"}}}); err != nil {
		t.Fatal(err)
	}
	var got []Session
	cursor := ""
	for pages := 0; ; pages++ {
		page, err := s.ListSessions(ctx, ListOptions{Limit: 3, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page.Sessions...)
		if cursor = page.NextCursor; cursor == "" {
			if pages != 2 {
				t.Fatalf("%d pages", pages+1)
			}
			break
		}
	}
	want := []string{ids[2], ids[6], ids[5], ids[4], ids[3], ids[1], ids[0]}
	if len(got) != len(want) {
		t.Fatalf("got %d sessions", len(got))
	}
	for i := range want {
		if got[i].ID != want[i] {
			t.Fatalf("order at %d: %s, want %s", i, got[i].Title, want[i])
		}
	}
	if got[0].MessageCount != 1 || got[0].Model != "m" || got[0].Title != "s2" {
		t.Fatalf("summary %+v", got[0])
	}
	all, _ := s.ListSessions(ctx, ListOptions{IncludeHidden: true})
	children, _ := s.ListSessions(ctx, ListOptions{ParentID: ids[0]})
	if len(all.Sessions) != 8 || len(children.Sessions) != 1 || children.Sessions[0].Kind != KindSubagent {
		t.Fatalf("hidden/children: %d %+v", len(all.Sessions), children)
	}
	for _, o := range []ListOptions{{Limit: -1}, {Limit: 1001}, {Cursor: "garbage"}, {Cursor: "x:y"}} {
		if _, err := s.ListSessions(ctx, o); !errors.Is(err, ErrInvalid) {
			t.Errorf("ListSessions(%+v) = %v", o, err)
		}
	}
}

func TestUserRenameWinsOverAutoTitle(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	if ok, err := s.SetAutoTitle(ctx, id, "Auto one"); !ok || err != nil {
		t.Fatalf("first auto title: %v %v", ok, err)
	}
	if err := s.RenameSession(ctx, id, "  Mine  "); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.SetAutoTitle(ctx, id, "Auto two"); ok || err != nil {
		t.Fatalf("auto title after rename: %v %v", ok, err)
	}
	got, _ := s.GetSession(ctx, id)
	if got.Title != "Mine" || !got.TitleSetByUser {
		t.Fatalf("%+v", got)
	}
	if err := s.RenameSession(ctx, id, " "); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty rename: %v", err)
	}
	if err := s.RenameSession(ctx, "nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("rename unknown: %v", err)
	}
	if _, err := s.SetAutoTitle(ctx, "nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("auto title unknown: %v", err)
	}
	if err := s.SetSessionStatus(ctx, id, "deleted?"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad status: %v", err)
	}
	if err := s.SetSessionStatus(ctx, id, SessionArchived); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSessionModel(ctx, id, "deepseek"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetSession(ctx, id); got.Status != SessionArchived || got.Model != "deepseek" {
		t.Fatalf("%+v", got)
	}
	if _, err := s.CreateSession(ctx, NewSession{Kind: "robot"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad kind: %v", err)
	}
	if _, err := s.CreateSession(ctx, NewSession{ParentID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing parent: %v", err)
	}
}

func TestDeleteSessionCascades(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	keep := mustSession(t, s, NewSession{})
	parent := mustSession(t, s, NewSession{})
	child := mustSession(t, s, NewSession{ParentID: parent.ID, Kind: KindReviewer})
	for _, id := range []string{keep.ID, parent.ID, child.ID} {
		_, w, err := s.BeginTurn(ctx, id, "needle words", TurnOptions{LLM: []llm.Message{{Role: llm.RoleUser, Content: "x"}}})
		if err != nil {
			t.Fatal(err)
		}
		w.AppendText("needle reply")
		w.AddToolCall(ctx, ToolCall{ID: "c", Name: "n"})
		w.Finalize(ctx, StatusDone, nil)
		s.SetState(ctx, id, testKeyPlan, json.RawMessage(`[1]`))
		s.CreateConfirmation(ctx, id, NewConfirmation{Kind: "k", Payload: json.RawMessage(`{}`)})
	}
	if err := s.DeleteSession(ctx, parent.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, parent.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.GetSession(ctx, child.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("child survived: %v", err)
	}
	for table, want := range map[string]int{"sessions": 1, "messages": 2, "message_parts": 3, "llm_messages": 1, "session_state": 1, "confirmations": 1} {
		if n := countRows(t, s, table, "1"); n != want {
			t.Errorf("%s has %d rows, want %d", table, n, want)
		}
	}
	hits, err := s.Search(ctx, "needle", SearchOptions{})
	if err != nil || len(hits) != 2 {
		t.Fatalf("search after delete: %+v %v", hits, err)
	}
	for _, h := range hits {
		if h.SessionID != keep.ID {
			t.Fatalf("hit from deleted session: %+v", h)
		}
	}
	if v, _ := s.IntegrityCheck(ctx); v != "ok" {
		t.Fatal(v)
	}
}

func TestSessionState(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	if err := s.SetState(ctx, id, testKeyBTW, json.RawMessage(`{"open":true}`)); err != nil {
		t.Fatal(err)
	}
	s.SetState(ctx, id, testKeyBTW, json.RawMessage(`{"open":false}`))
	s.SetState(ctx, id, testKeyToggle, json.RawMessage(`true`))
	v, ok, err := s.GetState(ctx, id, testKeyBTW)
	if !ok || err != nil || string(v) != `{"open":false}` {
		t.Fatalf("%s %v %v", v, ok, err)
	}
	if _, ok, _ := s.GetState(ctx, id, "missing"); ok {
		t.Fatal("missing key found")
	}
	s.DeleteState(ctx, id, testKeyToggle)
	all, _ := s.AllState(ctx, id)
	if len(all) != 1 {
		t.Fatalf("%v", all)
	}
	for _, bad := range []struct {
		sid, key, val string
		want          error
	}{{id, "", `1`, ErrInvalid}, {id, "k", `{`, ErrInvalid}, {"nope", "k", `1`, ErrNotFound}} {
		if err := s.SetState(ctx, bad.sid, bad.key, json.RawMessage(bad.val)); !errors.Is(err, bad.want) {
			t.Errorf("SetState(%q,%q,%q) = %v", bad.sid, bad.key, bad.val, err)
		}
	}
	if _, err := s.CreateConfirmation(ctx, id, NewConfirmation{Kind: "k", Payload: json.RawMessage(`{`)}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad payload: %v", err)
	}
}

// State keys of these tests; the store gives keys no meaning (package
// sessionstate declares the real ones).
const (
	testKeyPlan   = "todo_plan"
	testKeyBTW    = "btw"
	testKeyToggle = "edit_toggle"
)
