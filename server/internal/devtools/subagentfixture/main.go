// Command subagentfixture writes a chat session whose one investigate
// sub-agent ran longer than session/load's page (200 messages) into a
// GoVibe store, for the e2e test of "N earlier messages hidden — show"
// (e2e/subagent_paging_test.go). A live run that long would take hundreds
// of scripted model rounds; the rows written here are the ones a run
// writes: a parent chat whose assistant message holds the investigate call,
// and a hidden child session anchored on that message and call.
//
// The child's messages: the task (origin subagent-task), then "Step i: …"
// assistant texts, then read_file calls each with its result message, then
// the run's final answer. Tool pairs are only among the newest 100, so the
// page boundary never falls between a call and its result and exactly
// messages-200 are hidden. The store may be open in a running sidecar
// (SQLite WAL), as with `govibe session import`.
//
//	subagentfixture -state-dir DIR [-messages 250] [-title T]
//
// It prints the parent session's id.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/storage/store"
)

func main() {
	stateDir := flag.String("state-dir", "", "the sidecar's state dir (holds sessions.db)")
	n := flag.Int("messages", 250, "messages in the sub-agent's run (more than 200 to page)")
	title := flag.String("title", "Long investigation", "the parent session's title")
	flag.Parse()
	id, err := write(context.Background(), *stateDir, *title, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "subagentfixture:", err)
		os.Exit(2)
	}
	fmt.Println(id)
}

// The run's last tool calls (two messages each): the rest are text steps.
const toolPairs = 20

func write(ctx context.Context, stateDir, title string, n int) (string, error) {
	if stateDir == "" {
		return "", fmt.Errorf("-state-dir is required")
	}
	if n < 2*toolPairs+2 {
		return "", fmt.Errorf("-messages %d: at least %d (the task, %d tool calls with results, the answer)", n, 2*toolPairs+2, toolPairs)
	}
	if _, err := os.Stat(filepath.Join(stateDir, "sessions.db")); err != nil {
		return "", fmt.Errorf("no store in %s: %w", stateDir, err)
	}
	st, err := store.Open(filepath.Join(stateDir, "sessions.db"), store.Options{})
	if err != nil {
		return "", err
	}
	defer st.Close()

	parent, err := st.CreateSession(ctx, store.NewSession{Title: title, Model: "scripted", Kind: store.KindChat})
	if err != nil {
		return "", err
	}
	text := func(s string) []store.Part { return []store.Part{{Kind: store.PartText, Text: s}} }
	if _, err := st.AppendMessage(ctx, parent.ID, store.NewMessage{Role: store.RoleUser, Parts: text("Where is Add defined? Investigate thoroughly.")}); err != nil {
		return "", err
	}
	const callID = "call-investigate"
	anchor, err := st.AppendMessage(ctx, parent.ID, store.NewMessage{Role: store.RoleAssistant, Parts: []store.Part{
		{Kind: store.PartText, Text: "I will investigate."},
		{Kind: store.PartToolCall, ToolCall: &store.ToolCall{ID: callID, Name: "investigate", Arguments: `{"objective":"find where Add is defined"}`, Status: store.ToolDone}},
		{Kind: store.PartToolResult, ToolResult: &store.ToolResult{ToolCallID: callID, OK: true, Output: `{"summary":"Add is in calc.go"}`, DurationMs: 1200}},
		{Kind: store.PartText, Text: "Investigation finished: Add is defined in calc.go."},
	}})
	if err != nil {
		return "", err
	}
	child, err := st.CreateSession(ctx, store.NewSession{Title: "investigate", ParentID: parent.ID, Kind: store.KindSubagent, Hidden: true,
		ParentMessageID: anchor.ID, ParentCallID: callID})
	if err != nil {
		return "", err
	}
	add := func(m store.NewMessage) error {
		m.SubAgentTag = "investigate"
		_, err := st.AppendMessage(ctx, child.ID, m)
		return err
	}
	if err := add(store.NewMessage{Role: store.RoleUser, Origin: store.OriginSubagentTask, Parts: text("Find where Add is defined.")}); err != nil {
		return "", err
	}
	steps := n - 2 - 2*toolPairs
	for i := 1; i <= steps; i++ {
		if err := add(store.NewMessage{Role: store.RoleAssistant, Parts: text(fmt.Sprintf("Step %d: looked at part %d of the code base.", i, i))}); err != nil {
			return "", err
		}
	}
	for i := 1; i <= toolPairs; i++ {
		id := fmt.Sprintf("call-read-%d", i)
		if err := add(store.NewMessage{Role: store.RoleAssistant, Parts: []store.Part{{Kind: store.PartToolCall,
			ToolCall: &store.ToolCall{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"file%d.go"}`, i), Status: store.ToolDone}}}}); err != nil {
			return "", err
		}
		if err := add(store.NewMessage{Role: store.RoleTool, Parts: []store.Part{{Kind: store.PartToolResult,
			ToolResult: &store.ToolResult{ToolCallID: id, OK: true, Output: fmt.Sprintf("package calc // file %d", i), DurationMs: 3}}}}); err != nil {
			return "", err
		}
	}
	if err := add(store.NewMessage{Role: store.RoleAssistant, Parts: text("Add is defined in calc.go.")}); err != nil {
		return "", err
	}
	return parent.ID, nil
}
