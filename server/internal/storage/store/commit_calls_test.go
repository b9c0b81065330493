package store

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// An assistant message and its tool calls are on disk together, in one
// commit, with the text streamed before them; refused calls are reported
// and leave the rest committed.
func TestCommitLLMCallsCommitsTheMessageAndItsCallsTogether(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	ids, w, err := s.BeginTurn(ctx, sess.ID, "go", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.AppendText("reading")
	m := llm.Message{Role: llm.RoleAssistant, Content: "reading", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"filePath":"a.go"}`}, {ID: "c2", Name: "read_file", Arguments: `{}`}}}
	err = w.CommitLLMCalls(ctx, m,
		ToolCall{ID: "c1", Name: "read_file", Arguments: `{"filePath":"a.go"}`},
		ToolCall{ID: "c2", Name: "read_file", Arguments: `{}`, Status: ToolPending},
		ToolCall{ID: "c3"}, // no name
		ToolCall{ID: "c1", Name: "read_file", Arguments: `{}`}) // twice
	if err == nil || !strings.Contains(err.Error(), "id and a name") || !strings.Contains(err.Error(), "c1 already recorded") {
		t.Fatalf("refused calls reported as %v", err)
	}
	entries, err := s.LLMEntries(ctx, sess.ID)
	if err != nil || len(entries) != 1 || len(entries[0].Message.ToolCalls) != 2 || entries[0].SourceMessageID != ids.AssistantMessageID {
		t.Fatalf("track %+v (%v)", entries, err)
	}
	_, parts := storedParts(t, s, ids.AssistantMessageID)
	if len(parts) != 3 || parts[0].Text != "reading" || parts[1].ToolCall.ID != "c1" || parts[2].ToolCall.ID != "c2" ||
		parts[1].ToolCall.Status != ToolPending || parts[2].ToolCall.Status != ToolPending {
		t.Fatalf("stored parts %+v", parts)
	}
	// The calls are the writer's own: their results find them.
	if err := w.AddToolResult(ctx, ToolResult{ToolCallID: "c2", OK: true, Output: "x"}, llm.Message{Role: llm.RoleTool, ToolCallID: "c2", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	// Without calls it is CommitLLM.
	if err := w.CommitLLMCalls(ctx, llm.Message{Role: llm.RoleAssistant, Content: "done"}); err != nil {
		t.Fatal(err)
	}
	if entries, _ := s.LLMEntries(ctx, sess.ID); len(entries) != 3 {
		t.Fatalf("track after a call-less commit: %d entries", len(entries))
	}
	// A deleted session fails the whole commit.
	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.CommitLLMCalls(ctx, m, ToolCall{ID: "c9", Name: "ls"}); err == nil {
		t.Fatal("a commit into a deleted session succeeded")
	}
}
