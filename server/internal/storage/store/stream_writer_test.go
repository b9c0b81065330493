package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// storedParts reads a message's parts as committed on disk.
func storedParts(t *testing.T, s *Store, id string) (Message, []Part) {
	t.Helper()
	m, err := s.GetMessage(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m, m.Parts
}

func TestBeginTurnCommitsUserAndPendingAssistantTogether(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, err := s.BeginTurn(ctx, sess.ID, "fix the bug", TurnOptions{LLM: []llm.Message{{Role: llm.RoleUser, Content: "fix the bug"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Finalize(ctx, StatusDone, nil)
	page, err := s.LoadMessages(ctx, sess.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 2 || len(page.Messages) != 2 {
		t.Fatalf("page %+v", page)
	}
	u, a := page.Messages[0], page.Messages[1]
	if u.ID != ids.UserMessageID || u.Role != RoleUser || u.Status != StatusDone || u.Text() != "fix the bug" || u.Seq != ids.UserSeq {
		t.Fatalf("user message %+v", u)
	}
	if a.ID != ids.AssistantMessageID || a.Role != RoleAssistant || a.Status != StatusPending || a.ReplyTo != u.ID || a.Seq != u.Seq+1 {
		t.Fatalf("assistant message %+v", a)
	}
	entries, _ := s.LLMEntries(ctx, sess.ID)
	if len(entries) != 1 || entries[0].SourceMessageID != u.ID {
		t.Fatalf("llm entries %+v", entries)
	}

	// The next turn replies to the latest message by default.
	ids2, w2, err := s.BeginTurn(ctx, sess.ID, "again", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w2.Finalize(ctx, StatusDone, nil)
	u2, _ := storedParts(t, s, ids2.UserMessageID)
	if u2.ReplyTo != ids.AssistantMessageID {
		t.Fatalf("second user message replies to %q, want %q", u2.ReplyTo, ids.AssistantMessageID)
	}
}

func TestBeginTurnBadInputWritesNothing(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	if _, _, err := s.BeginTurn(ctx, sess.ID, "  ", TurnOptions{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty text: %v", err)
	}
	if _, _, err := s.BeginTurn(ctx, "nope", "hi", TurnOptions{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	// A bad LLM message aborts the whole turn, including both records.
	if _, _, err := s.BeginTurn(ctx, sess.ID, "hi", TurnOptions{LLM: []llm.Message{{Role: "robot"}}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad llm role: %v", err)
	}
	if n := countRows(t, s, "messages", "1"); n != 0 {
		t.Fatalf("%d messages written by failed turns", n)
	}
	if got, _ := s.GetSession(ctx, sess.ID); got.MessageCount != 0 {
		t.Fatalf("message count %d", got.MessageCount)
	}
}

func TestTextIsBufferedUntilToolCallFlushesIt(t *testing.T) {
	// An interval longer than the test: only synchronous calls write.
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, err := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.AppendReasoning("think ")
	w.AppendReasoning("hard")
	w.AppendText("Let me ")
	w.AppendText("look.")
	if _, parts := storedParts(t, s, ids.AssistantMessageID); len(parts) != 0 {
		t.Fatalf("deltas written before any flush: %+v", parts)
	}
	if err := w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "read", Arguments: `{"path":"a.go"}`}); err != nil {
		t.Fatal(err)
	}
	_, parts := storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 3 || parts[0].Text != "think hard" || parts[1].Text != "Let me look." ||
		parts[2].Kind != PartToolCall || parts[2].ToolCall.Status != ToolPending || parts[2].ToolCall.Arguments != `{"path":"a.go"}` {
		t.Fatalf("after tool call: %+v", parts)
	}
	if err := w.SetToolCallStatus(ctx, "c1", ToolRunning); err != nil {
		t.Fatal(err)
	}
	if err := w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: true, Output: "package a", Meta: json.RawMessage(`{"lines":1}`), DurationMs: 1234},
		llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "package a"}); err != nil {
		t.Fatal(err)
	}
	_, parts = storedParts(t, s, ids.AssistantMessageID)
	// The duration is stored so a reopened session's card still shows it.
	if len(parts) != 4 || parts[2].ToolCall.Status != ToolDone || parts[3].ToolResult.Output != "package a" || string(parts[3].ToolResult.Meta) != `{"lines":1}` ||
		parts[3].ToolResult.DurationMs != 1234 {
		t.Fatalf("after tool result: %+v", parts)
	}
	// Text after the tool starts a new part and stays buffered.
	w.AppendText("Done")
	if _, parts = storedParts(t, s, ids.AssistantMessageID); len(parts) != 4 {
		t.Fatalf("text after tool written early: %+v", parts)
	}
	usage := &llm.Usage{PromptTokens: 10, CompletionTokens: 5}
	if err := w.Finalize(ctx, StatusDone, usage, llm.Message{Role: llm.RoleAssistant, Content: "Done"}); err != nil {
		t.Fatal(err)
	}
	m, parts := storedParts(t, s, ids.AssistantMessageID)
	if m.Status != StatusDone || *m.Usage != *usage || len(parts) != 5 || parts[4].Text != "Done" {
		t.Fatalf("finalized: %+v %+v", m, parts)
	}
	entries, _ := s.LLMEntries(ctx, sess.ID)
	if len(entries) != 2 || entries[0].Message.Role != llm.RoleTool || entries[1].SourceMessageID != ids.AssistantMessageID {
		t.Fatalf("llm entries %+v", entries)
	}
	if err := w.AppendText("late"); !errors.Is(err, ErrWriterClosed) {
		t.Fatalf("append after finalize: %v", err)
	}
	if err := w.AddToolCall(ctx, ToolCall{ID: "c2", Name: "x"}); !errors.Is(err, ErrWriterClosed) {
		t.Fatalf("tool call after finalize: %v", err)
	}
}

func TestTimerFlushesBufferedText(t *testing.T) {
	s := openTest(t, Options{FlushInterval: 20 * time.Millisecond})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, _ := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	w.AppendText("hello ")
	w.AppendText("world")
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, parts := storedParts(t, s, ids.AssistantMessageID)
		if len(parts) == 1 && parts[0].Text == "hello world" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timer never flushed: %+v", parts)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The timer re-arms for later deltas, extending the same part.
	w.AppendText("!")
	for {
		_, parts := storedParts(t, s, ids.AssistantMessageID)
		if len(parts) == 1 && parts[0].Text == "hello world!" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("second flush missing: %+v", parts)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := w.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
}

func TestToolCallAndResultErrorsWriteNothing(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, _ := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	if err := w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "read"}); err != nil {
		t.Fatal(err)
	}
	w.AppendText("buffered")
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"call without name", w.AddToolCall(ctx, ToolCall{ID: "c2"}), ErrInvalid},
		{"duplicate call", w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "read"}), ErrInvalid},
		{"bad call status", w.AddToolCall(ctx, ToolCall{ID: "c3", Name: "x", Status: "weird"}), ErrInvalid},
		{"result for unknown call", w.AddToolResult(ctx, ToolResult{ToolCallID: "zz", OK: true}), ErrNotFound},
		{"result with bad meta", w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", Meta: json.RawMessage("{")}), ErrInvalid},
		{"result with bad llm", w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: true}, llm.Message{Role: "??"}), ErrInvalid},
		{"status of unknown call", w.SetToolCallStatus(ctx, "zz", ToolRunning), ErrNotFound},
		{"bad notice", w.AddNotice(ctx, "loud", "x"), ErrInvalid},
		{"pending final", w.Finalize(ctx, StatusPending, nil), ErrInvalid},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.err, c.want)
		}
	}
	_, parts := storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 1 || parts[0].ToolCall.Status != ToolPending {
		t.Fatalf("failed calls changed the message: %+v", parts)
	}
	if n := countRows(t, s, "llm_messages", "1"); n != 0 {
		t.Fatalf("failed result wrote %d llm rows", n)
	}
	// The writer is still usable and kept the buffered text.
	if err := w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: false, Output: "boom"}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: true}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("second result: %v", err)
	}
	_, parts = storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 3 || parts[0].ToolCall.Status != ToolError || parts[1].Text != "buffered" || parts[2].ToolResult.Output != "boom" {
		t.Fatalf("parts %+v", parts)
	}
}

func TestFinalizeCancelledCancelsUnfinishedToolCalls(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, _ := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	w.AddToolCall(ctx, ToolCall{ID: "done", Name: "a"})
	w.AddToolResult(ctx, ToolResult{ToolCallID: "done", OK: true})
	w.AddToolCall(ctx, ToolCall{ID: "waiting", Name: "b"})
	w.AddNotice(ctx, NoticeWarn, "interrupted by user")
	if err := w.Finalize(ctx, StatusCancelled, nil); err != nil {
		t.Fatal(err)
	}
	m, parts := storedParts(t, s, ids.AssistantMessageID)
	if m.Status != StatusCancelled || parts[0].ToolCall.Status != ToolDone || parts[2].ToolCall.Status != ToolCancelled || parts[3].Notice.Text != "interrupted by user" {
		t.Fatalf("%+v %+v", m, parts)
	}
}

func TestResumeWriterContinuesPendingMessage(t *testing.T) {
	path := t.TempDir() + "/ws.db"
	s, _ := Open(path, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, _ := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	w.AppendText("I will ask.")
	w.AddToolCall(ctx, ToolCall{ID: "ask", Name: "ask_user"})
	c, err := s.CreateConfirmation(ctx, sess.ID, NewConfirmation{MessageID: ids.AssistantMessageID, ToolCallID: "ask", Kind: "ask_user", Payload: json.RawMessage(`{"q":"proceed?"}`)})
	if err != nil {
		t.Fatal(err)
	}
	s.Close() // "reload": the writer is abandoned without Finalize

	s, _ = Open(path, Options{FlushInterval: time.Hour})
	defer s.Close()
	pend, err := s.PendingConfirmations(ctx, sess.ID)
	if err != nil || len(pend) != 1 || pend[0].ID != c.ID || string(pend[0].Payload) != `{"q":"proceed?"}` {
		t.Fatalf("pending confirmations after reload: %+v %v", pend, err)
	}
	if err := s.ResolveConfirmation(ctx, c.ID, ConfirmApproved, json.RawMessage(`{"answer":"yes"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.ResolveConfirmation(ctx, c.ID, ConfirmRejected, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("double answer: %v", err)
	}
	if err := s.ResolveConfirmation(ctx, "nope", ConfirmRejected, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown confirmation: %v", err)
	}
	if pend, _ := s.PendingConfirmations(ctx, sess.ID); len(pend) != 0 {
		t.Fatalf("still pending: %+v", pend)
	}
	w2, err := s.ResumeWriter(ctx, ids.AssistantMessageID)
	if err != nil {
		t.Fatal(err)
	}
	w2.AddToolResult(ctx, ToolResult{ToolCallID: "ask", OK: true, Output: "yes"})
	w2.AppendText("Proceeding.")
	if err := w2.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	_, parts := storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 4 || parts[0].Text != "I will ask." || parts[1].ToolCall.Status != ToolDone || parts[3].Text != "Proceeding." {
		t.Fatalf("%+v", parts)
	}
	if _, err := s.ResumeWriter(ctx, ids.AssistantMessageID); !errors.Is(err, ErrInvalid) {
		t.Fatalf("resuming a finished message: %v", err)
	}
}
