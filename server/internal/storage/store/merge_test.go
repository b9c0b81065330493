package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// oldSlot builds a database as a per-window storage slot held it: a chat
// with a finished turn, a sub-agent child, state, a learned endpoint and a
// question left pending, plus shared (a session both databases have).
func oldSlot(t *testing.T, path string, shared func(*Store)) (chat, child Session) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	chat = mustSession(t, s, NewSession{Title: "old chat"})
	ids, w, err := s.BeginTurn(ctx, chat.ID, "where is the zebra config", TurnOptions{LLM: []llm.Message{{Role: llm.RoleUser, Content: "where is the zebra config"}}})
	if err != nil {
		t.Fatal(err)
	}
	w.AppendText("in zebra.toml")
	if err := w.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	child = mustSession(t, s, NewSession{Title: "explore", ParentID: chat.ID, Kind: KindSubagent, ParentMessageID: ids.AssistantMessageID})
	if _, _, err := s.BeginTurn(ctx, child.ID, "look around", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetState(ctx, chat.ID, "mode", json.RawMessage(`"plan"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateConfirmation(ctx, chat.ID, NewConfirmation{ToolCallID: "c9", Kind: "shell", Payload: json.RawMessage(`{"cmd":"ls"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LearnEndpointToolCalling(ctx, "http://old", "m", "text"); err != nil {
		t.Fatal(err)
	}
	if shared != nil {
		shared(s)
	}
	return chat, child
}

// TestMergeFromOldSlots: the workspace's database takes in what each old
// slot held that it lacks, losing nothing (children, messages with their
// parts and search index, model track, state, questions, endpoints), keeps
// what it has, and merges each slot once: a chat deleted afterwards does
// not come back.
func TestMergeFromOldSlots(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{})
	mineSession := mustSession(t, s, NewSession{Title: "already here"})
	if _, err := s.LearnEndpointToolCalling(ctx, "http://old", "m", "native"); err != nil {
		t.Fatal(err)
	}
	slotA := filepath.Join(dir, "slotA", "sessions.db")
	var sharedID string
	chat, child := oldSlot(t, slotA, func(o *Store) {
		// The same session in both (a slot merged before, copied by hand):
		// the workspace's copy wins.
		sh := mustSession(t, o, NewSession{Title: "old copy"})
		sharedID = sh.ID
		if _, err := s.w.Exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'new copy', 1, 1)`, sh.ID); err != nil {
			t.Fatal(err)
		}
	})
	slotB := filepath.Join(dir, "slotB", "sessions.db")
	chatB, _ := oldSlot(t, slotB, nil)

	res, err := s.MergeFrom(ctx, slotA)
	if err != nil {
		t.Fatal(err)
	}
	if res.Copied != 2 || res.Present != 1 || res.Already {
		t.Fatalf("merge of slot A = %+v; want 2 copied (chat and child), 1 present", res)
	}
	if _, err := s.MergeFrom(ctx, slotB); err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListSessions(ctx, ListOptions{})
	titles := map[string]string{}
	for _, x := range list.Sessions {
		titles[x.ID] = x.Title
	}
	if len(list.Sessions) != 4 || titles[mineSession.ID] != "already here" || titles[chat.ID] != "old chat" || titles[chatB.ID] != "old chat" || titles[sharedID] != "new copy" {
		t.Fatalf("sessions after merging two slots: %v", titles)
	}
	page, err := s.LoadMessages(ctx, chat.ID, 0, 10)
	if err != nil || len(page.Messages) != 2 || page.Messages[1].Parts[0].Text != "in zebra.toml" {
		t.Fatalf("merged transcript: %+v, %v", page.Messages, err)
	}
	if got, _ := s.GetSession(ctx, child.ID); got.ParentID != chat.ID || got.ParentMessageID != page.Messages[1].ID {
		t.Fatalf("merged child lost its place: %+v", got)
	}
	if track, _ := s.LLMMessages(ctx, chat.ID); len(track) != 1 || track[0].Content != "where is the zebra config" {
		t.Fatalf("merged model track: %+v", track)
	}
	if v, ok, _ := s.GetState(ctx, chat.ID, "mode"); !ok || string(v) != `"plan"` {
		t.Fatalf("merged state: %s", v)
	}
	if c, _ := s.PendingConfirmations(ctx, chat.ID); len(c) != 1 || s.OwnerAlive(c[0].Owner) {
		t.Fatalf("the old slot's pending question: %+v (its owner must count as gone)", c)
	}
	if hits, err := s.Search(ctx, "zebra.toml", SearchOptions{}); err != nil || len(hits) != 2 {
		t.Fatalf("search over merged text = %+v, %v; want the answer of each slot's chat", hits, err)
	}
	if tc, _ := s.EndpointToolCalling(ctx, "http://old", "m"); tc != "native" {
		t.Fatalf("an endpoint this database knew was overwritten by the slot's: %q", tc)
	}
	if pending, _ := s.PendingMessagesOf(ctx, child.ID); len(pending) != 1 || pending[0].Owner == s.Owner() {
		t.Fatalf("the child's unfinished run: %+v", pending)
	}

	// Once per slot: a chat deleted here stays deleted.
	if err := s.DeleteSession(ctx, chat.ID); err != nil {
		t.Fatal(err)
	}
	if done, err := s.Merged(ctx, slotA); !done || err != nil {
		t.Fatalf("Merged(slot A) = %v, %v", done, err)
	}
	if done, _ := s.Merged(ctx, filepath.Join(dir, "slotC", "sessions.db")); done {
		t.Fatal("a slot never merged counts as merged")
	}
	res, err = s.MergeFrom(ctx, slotA)
	if err != nil || !res.Already || res.Copied != 0 {
		t.Fatalf("second merge of slot A = %+v, %v; want Already", res, err)
	}
	if _, err := s.GetSession(ctx, chat.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted chat came back from the slot: %v", err)
	}
	// The slot itself is left as it was (a copy, not a move).
	old, err := Open(slotA, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if l, _ := old.ListSessions(ctx, ListOptions{}); len(l.Sessions) != 2 {
		t.Fatalf("the slot lost sessions: %+v", l.Sessions)
	}
}

// TestMergeFromBadSources: a missing file, the database itself and a
// damaged slot are reported, and nothing is recorded as merged.
func TestMergeFromBadSources(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	dir := t.TempDir()
	if _, err := s.MergeFrom(ctx, filepath.Join(dir, "none.db")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing source: %v", err)
	}
	if _, err := s.MergeFrom(ctx, s.Path()); !errors.Is(err, ErrInvalid) {
		t.Fatalf("merging into itself: %v", err)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("not a database at all, just text that is long enough"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.MergeFrom(ctx, bad)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.MovedTo == "" {
		t.Fatalf("damaged source: %v; want a CorruptError naming where it was moved", err)
	}
	if n := countRows(t, s, "merged_stores", "1 = 1"); n != 0 {
		t.Fatalf("failed merges were recorded: %d", n)
	}
}
