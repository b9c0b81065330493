package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// synchronousOf reads the write connection's synchronous level (2 FULL,
// 1 NORMAL): what the next durable commit will do.
func synchronousOf(t *testing.T, s *Store) int {
	t.Helper()
	var level int
	if err := s.w.QueryRow("PRAGMA synchronous").Scan(&level); err != nil {
		t.Fatal(err)
	}
	return level
}

// Relaxed commits (stream flushes, tool-call bookkeeping, usage state)
// leave the write connection at FULL, whether they commit or fail, so a
// durable commit after them still waits for the disk, and what they wrote
// is there after a reopen.
func TestRelaxedCommitsKeepLaterCommitsDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if got := synchronousOf(t, s); got != 2 {
		t.Fatalf("a fresh store syncs at level %d, want 2 (FULL)", got)
	}
	sess := mustSession(t, s, NewSession{Title: "d"})
	if err := s.SetStateRelaxed(ctx, sess.ID, "usage", json.RawMessage(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := synchronousOf(t, s); got != 2 {
		t.Fatalf("after a relaxed commit the connection syncs at level %d, want 2", got)
	}
	boom := errors.New("boom")
	if err := s.writeTxRelaxed(ctx, func(*sql.Tx) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("failed relaxed transaction: %v", err)
	}
	if got := synchronousOf(t, s); got != 2 {
		t.Fatalf("after a failed relaxed commit the connection syncs at level %d, want 2", got)
	}
	if err := s.SetStateRelaxed(ctx, sess.ID, "usage", json.RawMessage(`not json`)); err == nil {
		t.Fatal("relaxed state accepted invalid JSON")
	}
	_, w, err := s.BeginTurn(ctx, sess.ID, "q", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AppendText("streamed"); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.AddToolCall(ctx, ToolCall{ID: "c1", Name: "read_file", Arguments: `{}`}); err != nil {
		t.Fatal(err)
	}
	if err := w.SetToolCallStatus(ctx, "c1", ToolRunning); err != nil {
		t.Fatal(err)
	}
	if got := synchronousOf(t, s); got != 2 {
		t.Fatalf("after the writer's relaxed commits the connection syncs at level %d, want 2", got)
	}
	if err := w.AddToolResult(ctx, ToolResult{ToolCallID: "c1", OK: true, Output: "x"}, llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Finalize(ctx, StatusDone, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, ok, err := s.GetState(ctx, sess.ID, "usage"); err != nil || !ok || string(v) != `{"n":1}` {
		t.Fatalf("relaxed state after reopen: %s %v %v", v, ok, err)
	}
	page, err := s.LoadMessages(ctx, sess.ID, 0, 10)
	if err != nil || len(page.Messages) != 2 {
		t.Fatalf("messages after reopen: %+v %v", page, err)
	}
	parts := page.Messages[1].Parts
	if len(parts) != 3 || parts[0].Text != "streamed" || parts[1].ToolCall.Status != ToolDone || parts[2].ToolResult.Output != "x" {
		t.Fatalf("assistant message after reopen: %+v", parts)
	}
}
