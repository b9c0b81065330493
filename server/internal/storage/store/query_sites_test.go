package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Tests of query sites no other test reaches directly (see
// TestEveryStoreMethodHasATest).

func TestSetSessionHiddenHidesFromDefaultListing(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	a := mustSession(t, s, NewSession{Title: "a"})
	mustSession(t, s, NewSession{Title: "b"})
	if err := s.SetSessionHidden(ctx, a.ID, true); err != nil {
		t.Fatal(err)
	}
	page, err := s.ListSessions(ctx, ListOptions{})
	if err != nil || len(page.Sessions) != 1 || page.Sessions[0].Title != "b" {
		t.Fatalf("default listing %+v (%v)", page.Sessions, err)
	}
	page, _ = s.ListSessions(ctx, ListOptions{IncludeHidden: true})
	if len(page.Sessions) != 2 {
		t.Fatalf("with hidden: %d sessions", len(page.Sessions))
	}
	if err := s.SetSessionHidden(ctx, "no-such-session", true); err == nil {
		t.Fatal("hiding a missing session succeeded")
	}
}

func TestPendingMessagesListsUnfinishedRunsOldestFirst(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids1, w1, err := s.BeginTurn(ctx, sess.ID, "one", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w1.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	ids2, _, err := s.BeginTurn(ctx, sess.ID, "two", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].ID != ids2.AssistantMessageID || pending[0].SessionID != sess.ID || pending[0].ID == ids1.AssistantMessageID {
		t.Fatalf("pending %+v", pending)
	}
}

func TestCommitLLMAndDiscardTail(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, err := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.MessageID() != ids.AssistantMessageID {
		t.Fatalf("writer writes %s", w.MessageID())
	}
	w.AppendText("kept")
	if err := w.CommitLLM(ctx, llm.Message{Role: llm.RoleAssistant, Content: "kept"}); err != nil {
		t.Fatal(err)
	}
	entries, _ := s.LLMEntries(ctx, sess.ID)
	if len(entries) != 1 || entries[0].SourceMessageID != ids.AssistantMessageID {
		t.Fatalf("llm entries %+v", entries)
	}
	// A broken stream's partial text goes, committed or buffered; what
	// came before a tool call stays.
	w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "ls", Arguments: "{}", Status: ToolPending})
	w.AppendText("partial")
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.AppendText(" more")
	if err := w.DiscardTail(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	_, parts := storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 2 || parts[0].Text != "kept" || parts[1].ToolCall == nil {
		t.Fatalf("parts after discard: %+v", parts)
	}
	if got := w.Parts(); len(got) != 2 {
		t.Fatalf("writer view %+v", got)
	}
}

// StateOfSessions reads one key of many sessions in batches: every
// session past the first batch is still read, other keys and sessions
// not asked for are not, and a session without the key is absent.
func TestStateOfSessionsReadsOneKeyAcrossBatches(t *testing.T) {
	s := openTest(t, Options{RelaxedSync: true})
	ctx := context.Background()
	var ids []string
	for i := 0; i < maxStateBatch+20; i++ {
		sess := mustSession(t, s, NewSession{Title: fmt.Sprint("s", i)})
		ids = append(ids, sess.ID)
		if i%3 == 0 {
			continue // no value
		}
		if err := s.SetState(ctx, sess.ID, "usage", json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))); err != nil {
			t.Fatal(err)
		}
		if err := s.SetState(ctx, sess.ID, "other", json.RawMessage(`1`)); err != nil {
			t.Fatal(err)
		}
	}
	other := mustSession(t, s, NewSession{Title: "not asked"})
	_ = s.SetState(ctx, other.ID, "usage", json.RawMessage(`{"n":-1}`))
	got, err := s.StateOfSessions(ctx, "usage", ids)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		v, ok := got[id]
		if i%3 == 0 {
			if ok {
				t.Errorf("session %d without the key read %s", i, v)
			}
			continue
		}
		if want := fmt.Sprintf(`{"n":%d}`, i); string(v) != want {
			t.Errorf("session %d: %s, want %s", i, v, want)
		}
	}
	if _, ok := got[other.ID]; ok {
		t.Error("a session not asked for was read")
	}
	if len(got) != len(ids)-(len(ids)+2)/3 {
		t.Errorf("%d values read", len(got))
	}
	if empty, err := s.StateOfSessions(ctx, "usage", nil); err != nil || len(empty) != 0 {
		t.Errorf("no ids: %v %v", empty, err)
	}
}
