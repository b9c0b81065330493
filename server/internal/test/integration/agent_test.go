package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestSystemPromptStableAcrossTurns: the system prompt of turn N equals
// that of turn N+1 byte for byte, and turn N+1's request starts with turn
// N's whole message list, so the provider's prefix cache keeps hitting.
func TestSystemPromptStableAcrossTurns(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\n"), 0o644)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("c1", "read_file", `{"filePath":"a.txt"}`)}},
		scripted.Reply{Text: "it says hello"},
		scripted.Reply{Text: "second answer"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "what does a.txt say")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	ed.Call("chat/setEditEnabled", protocol.ChatSetEditEnabledParams{SessionID: r.SessionID, Enabled: false}, nil)
	r2 := send(t, ed, r.SessionID, "thanks")
	ed.AwaitTurnFinished(r.SessionID, r2.TurnID, 10*time.Second)
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[0].Messages[0].Role != "system" || reqs[0].Messages[0].Content != reqs[2].Messages[0].Content {
		t.Fatal("the system prompt changed between turns")
	}
	prev, next := reqs[1].Messages, reqs[2].Messages
	for i := range prev {
		if prev[i].Role != next[i].Role || prev[i].Content != next[i].Content || prev[i].ToolCallID != next[i].ToolCallID {
			t.Fatalf("turn 2 does not extend turn 1 at message %d:\n%+v\n%+v", i, prev[i], next[i])
		}
	}
	// State that changes lives in the new user message's Context block.
	last := next[len(next)-1].Content
	if !strings.HasPrefix(last, "<context>\nEdit: OFF") || !strings.HasSuffix(last, "thanks") {
		t.Fatalf("context block: %q", last)
	}
	if reqs[2].Prefix.CommonChars == 0 {
		t.Fatalf("scripted model saw no common prefix: %+v", reqs[2].Prefix)
	}
}

func TestParallelReadsAndModelVisibleFailures(t *testing.T) {
	ws := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		os.WriteFile(filepath.Join(ws, n), []byte(n+"\n"), 0o644)
	}
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			call("r1", "read_file", `{"filePath":"a.txt"}`), call("r2", "read_file", `{"filePath":"b.txt"}`), call("r3", "read_file", `{"filePath":"c.txt"}`),
			call("u1", "no_such_tool", `{}`), {ID: "j1", Name: "read_file", Arguments: `{"filePath": oops}`, Malformed: true},
		}},
		scripted.Reply{Text: "read them"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "read three files")
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second); fin.Status != "done" {
		t.Fatalf("a bad tool call must not end the turn: %s", fin.Status)
	}
	// The three reads were announced together, before any result: a parallel
	// batch reports every start first, whatever the goroutines' scheduling.
	var started, firstResultAt int
	for i, ev := range ed.Events(r.SessionID) {
		if ev.Kind == kinds.ToolCall && strings.HasPrefix(ev.Tool.CallID, "r") {
			started++
		}
		if ev.Kind == kinds.ToolResult && firstResultAt == 0 {
			firstResultAt = i
			if started != 3 {
				t.Fatalf("only %d reads had started when the first finished", started)
			}
		}
	}
	reqs := model.Requests()
	msgs := reqs[len(reqs)-1].Messages
	results := map[string]string{}
	for _, m := range msgs {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	if len(results) != 5 {
		t.Fatalf("every call needs exactly one result: %v", results)
	}
	if !strings.Contains(results["u1"], `unknown tool "no_such_tool"`) || !strings.Contains(results["j1"], "invalid JSON arguments") {
		t.Fatalf("failures must tell the model what went wrong: %q / %q", results["u1"], results["j1"])
	}
	if !strings.Contains(results["r2"], "b.txt") {
		t.Fatalf("read result %q", results["r2"])
	}
}

func TestEditToggleOffRefusesWrites(t *testing.T) {
	ws := t.TempDir()
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"new.txt","content":"x"}`)}},
		scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	var s protocol.SessionInfo
	ed.Call("session/create", protocol.SessionCreateParams{}, &s)
	ed.Call("chat/setEditEnabled", protocol.ChatSetEditEnabledParams{SessionID: s.ID, Enabled: false}, nil)
	r := send(t, ed, s.ID, "make a file")
	ed.AwaitTurnFinished(s.ID, r.TurnID, 10*time.Second)
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("written while edits were locked")
	}
	if got := lastToolResult(t, model); !strings.Contains(got, "edits are disabled") {
		t.Fatalf("tool result %q", got)
	}
	if len(ed.Notifications("confirm/requested")) != 0 {
		t.Fatal("a locked write must not even ask")
	}
}

func TestMaxInteractionsStopsTheRun(t *testing.T) {
	loop := scripted.Reply{ToolCalls: []scripted.ToolCall{call("", "list_files", `{}`)}}
	model := scripted.Start(t, loop, loop, loop, loop)
	ed := connect(t, "", model, map[string]any{"maxInteractions": 2})
	r := send(t, ed, "", "loop")
	fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	if fin.Status != "max_turns" {
		t.Fatalf("status %s", fin.Status)
	}
	var notice bool
	for _, ev := range ed.Events(r.SessionID) {
		notice = notice || (ev.Kind == kinds.Notice && strings.Contains(ev.Text, "maxInteractions"))
	}
	// Two tool rounds, then the request that lets the model answer from
	// them; its calls are answered "not run".
	if !notice || len(model.Requests()) != 3 {
		t.Fatalf("notice %v, %d requests (want 3: two tool rounds and the answer)", notice, len(model.Requests()))
	}
}

// TestTextToolProtocolFallback: an endpoint that rejects `tools` makes auto
// mode fall back to <tool_call> blocks; a malformed block gets a
// corrective retry naming the error.
func TestTextToolProtocolFallback(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("alpha\n"), 0o644)
	model := scripted.Start(t)
	model.SetConfig(scripted.Config{ToolsUnsupported: true})
	step := 0
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		step++
		switch step {
		case 1:
			return scripted.Reply{Text: `<tool_call>{"tool": "read_file", "arguments": {"filePath": "a.txt"}`}
		case 2:
			return scripted.Reply{Text: `Reading. <tool_call>{"tool": "read_file", "arguments": {"filePath": "a.txt"}}</tool_call>`}
		default:
			return scripted.Reply{Text: "It says alpha."}
		}
	})
	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed2, "", "what is in a.txt")
	if fin := ed2.AwaitTurnFinished(r.SessionID, r.TurnID, 15*time.Second); fin.Status != "done" {
		t.Fatalf("status %s\n%s", fin.Status, ed2.Stderr())
	}
	reqs := model.Requests()
	var sawCorrection, sawResult bool
	for _, q := range reqs[1:] {
		if len(q.Tools) > 0 {
			continue
		}
		for _, m := range q.Messages {
			sawCorrection = sawCorrection || strings.Contains(m.Content, "unclosed tag")
			sawResult = sawResult || (strings.Contains(m.Content, "<tool_result") && strings.Contains(m.Content, "alpha"))
		}
	}
	if !sawCorrection || !sawResult {
		t.Fatalf("correction %v result %v", sawCorrection, sawResult)
	}
	if ed2.Text(r.SessionID, "") == "" {
		t.Fatal("no text streamed")
	}
}
