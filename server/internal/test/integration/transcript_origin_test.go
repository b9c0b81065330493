package integration

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func isInvestigator(r *scripted.RecordedRequest) bool {
	return len(r.Messages) > 0 && r.Messages[0].Role == "system" && strings.HasPrefix(r.Messages[0].Content, "You are a codebase investigator")
}

// A turn calls investigate, then plans one item; the scheduler's prompts
// reach the model as user messages but are marked as the engine's, live
// and in session/load, and the investigator's work comes back with the
// session (its child session, anchored at the call) after a restart.
func TestEngineMessagesMarkedAndSubAgentsKeptAcrossReload(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if isInvestigator(r) {
			if strings.Contains(r.Messages[len(r.Messages)-1].Content, "a.txt") {
				return tc("ic", "complete_task", `{"report":{"SummaryOfFindings":"a.txt holds one line"}}`)
			}
			return tc("il", "list_files", `{}`)
		}
		who, step := r.SchedulerAgent()
		switch {
		case who == "free" && step == 0:
			return tc("inv1", "investigate", `{"objective":"find what the workspace holds"}`)
		case who == "free":
			return tc("p1", "create_todo_list", `{"goal":"one thing","items":["A"]}`)
		case who == "executor:1":
			return scripted.Reply{Text: "A done"}
		case who == "evaluator:1" && step == 0:
			return tc("c1", "complete_todo_item", `{"index":1,"summary":"A checked"}`)
		case who == "final":
			return scripted.Reply{Text: "Everything is done."}
		}
		return scripted.Reply{Text: "ok"}
	})
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	res := send(t, ed, "", "look around, then do A")
	sid := res.SessionID
	fin := ed.AwaitTurnFinished(sid, res.TurnID, 30*time.Second)
	if fin.Status != "done" {
		t.Fatalf("turn %s\n%s", fin.Status, ed.Stderr())
	}
	// Live: every message event tells the person's words from the engine's.
	live := map[string]string{}
	for _, ev := range ed.Events(sid) {
		if ev.Kind == kinds.Message && ev.Message != nil && ev.Message.Role == "user" {
			live[firstLine(ev.Message.Parts[0].Text)] = ev.Message.Origin
		}
	}
	wantLive := map[string]string{
		"look around, then do A":                                 "",
		"[executor:1] You are the executor for todo item 1":      "plan-step",
		"[evaluator:1] You are the evaluator for todo item 1":    "plan-step",
		"[scheduler] Every todo item has been handled. Results:": "plan-final",
	}
	for text, origin := range wantLive {
		got, ok := live[prefixKey(live, text)]
		if !ok || got != origin {
			t.Fatalf("live message %q: origin %q (found %v), want %q; all %v", text, got, ok, origin, live)
		}
	}
	// A new process reads everything from the store.
	if err := ed.Process().Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ed.Process().Wait()

	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	var load protocol.SessionLoadResult
	if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
		t.Fatal(err)
	}
	var final *protocol.Message
	userTurns := 0
	for i, m := range load.Messages {
		if m.Role != "user" {
			continue
		}
		if strings.HasPrefix(m.Parts[0].Text, "[scheduler]") {
			final = &load.Messages[i]
		}
		if m.Origin == "" {
			userTurns++
			if m.Parts[0].Text != "look around, then do A" {
				t.Fatalf("an engine prompt is stored as the user's: %q", m.Parts[0].Text)
			}
		} else if m.Origin != "plan-step" && m.Origin != "plan-final" {
			t.Fatalf("origin %q on %q", m.Origin, m.Parts[0].Text)
		}
	}
	if final == nil || final.Origin != "plan-final" || final.TurnID != "" {
		t.Fatalf("closing prompt after reload: %+v", final)
	}
	if userTurns != 1 {
		t.Fatalf("%d messages read as the user's", userTurns)
	}
	// The investigator ran while the free message holding its call was open.
	if len(load.SubAgents) != 1 {
		t.Fatalf("sub-agent runs after reload: %+v", load.SubAgents)
	}
	run := load.SubAgents[0]
	if run.Tag != "investigate" || run.CallID != "inv1" {
		t.Fatalf("run %+v", run)
	}
	var anchor *protocol.Message
	for i, m := range load.Messages {
		if m.ID == run.AnchorMessageID {
			anchor = &load.Messages[i]
		}
	}
	if anchor == nil || !hasCall(*anchor, "inv1") {
		t.Fatalf("anchor %q is not the message with the investigate call", run.AnchorMessageID)
	}
	var task, calls int
	for _, m := range run.Messages {
		if m.Role == "user" && m.Origin == "subagent-task" && m.Parts[0].Text == "find what the workspace holds" {
			task++
		}
		if m.SubAgentTag != "investigate" {
			t.Fatalf("child message tagged %q", m.SubAgentTag)
		}
		for _, p := range m.Parts {
			if p.Type == "tool_call" {
				calls++
			}
		}
	}
	if task != 1 || calls != 2 {
		t.Fatalf("child messages: task %d, calls %d: %+v", task, calls, run.Messages)
	}
}

func hasCall(m protocol.Message, id string) bool {
	for _, p := range m.Parts {
		if p.Type == "tool_call" && p.ToolCallID == id {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// prefixKey finds the key of m that starts with prefix.
func prefixKey(m map[string]string, prefix string) string {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return k
		}
	}
	return prefix
}
