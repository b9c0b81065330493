package store

import (
	"context"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// The hot statements are prepared when the store opens, and a tool round
// still writes through them after the pool replaced its write connection
// (tx.StmtContext prepares them again on the new one).
func TestHotWritesSurviveANewWriteConnection(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	if len(s.ws) != len(hotWrites) || len(s.rt.stmts) != len(txReads) {
		t.Fatalf("prepared %d of %d writes, %d of %d reads", len(s.ws), len(hotWrites), len(s.rt.stmts), len(txReads))
	}
	sess := mustSession(t, s, NewSession{})
	_, w, err := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	round := func(id string) {
		t.Helper()
		call := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "ls", Arguments: "{}"}}}
		if err := w.CommitLLMCalls(ctx, call, ToolCall{ID: id, Name: "ls", Arguments: "{}"}); err != nil {
			t.Fatal(err)
		}
		if err := w.SetToolCallStatus(ctx, id, ToolRunning); err != nil {
			t.Fatal(err)
		}
		if err := w.AddToolResult(ctx, ToolResult{ToolCallID: id, OK: true, Output: id}, llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: id}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetStateRelaxed(ctx, sess.ID, "k", []byte(`"`+id+`"`)); err != nil {
			t.Fatal(err)
		}
	}
	round("c1")
	// The connection is older than a nanosecond by now: the next
	// transaction gets a new one.
	s.w.SetConnMaxLifetime(time.Nanosecond)
	round("c2")
	s.w.SetConnMaxLifetime(0)
	round("c3")
	entries, err := s.LLMEntries(ctx, sess.ID)
	if err != nil || len(entries) != 6 || entries[5].Message.Content != "c3" {
		t.Fatalf("track %+v (%v)", entries, err)
	}
	if v, _, _ := s.GetState(ctx, sess.ID, "k"); string(v) != `"c3"` {
		t.Fatalf("state %s", v)
	}
}
