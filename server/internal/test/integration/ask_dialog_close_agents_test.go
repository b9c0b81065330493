package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The Close note (the user closed an ask_human dialog while the agent
// worked on their reply) reaches every agent that can call ask_human, not
// only the main one: a custom agent in each format GoVibe reads, and a
// plan's executor. investigate and the browser agent are never offered
// ask_human (TestSubAgentsWithoutAskHuman).

// helperMarker is in the custom agent's instructions, so the scripted
// model tells its requests from the main agent's.
const helperMarker = "You are the storage helper."

// TestAskHumanDialogCloseReachesCustomAgents: the main agent delegates to
// agent_helper, which asks; the user replies with Send, then closes the
// dialog while the helper works. The helper reads the note once, with its
// question's result or its next tool's; the main agent never does.
func TestAskHumanDialogCloseReachesCustomAgents(t *testing.T) {
	for _, c := range []struct{ kind, file, def string }{
		{"govibe", ".govibe/agents/helper.md", "---\nname: helper\ndescription: Sets up storage\ntools: [ask_human, list_files]\n---\n" + helperMarker + "\n"},
		{"claude-all-tools", ".claude/agents/helper.md", "---\nname: helper\ndescription: Sets up storage\n---\n" + helperMarker + "\n"},
		{"vscode", ".github/agents/helper.agent.md", "---\ndescription: Sets up storage\ntools: ['ask_human', 'ls']\n---\n" + helperMarker + "\n"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			gate := make(chan struct{})
			model := scripted.Start(t)
			model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
				if !strings.Contains(r.Messages[0].Content, helperMarker) {
					if lastToolOf(r, "a1") == "" {
						return tc("a1", "agent_helper", `{"objective":"choose the database"}`)
					}
					return scripted.Reply{Text: "The helper chose."}
				}
				switch {
				case lastToolOf(r, "q1") == "":
					return scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}
				case lastToolOf(r, "l1") == "":
					select {
					case <-gate:
					case <-time.After(20 * time.Second):
					}
					return tc("l1", "list_files", `{}`)
				}
				return scripted.Reply{Text: "Postgres it is."}
			})
			ws := t.TempDir()
			writeTree(t, ws, map[string]string{c.file: c.def})
			ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: t.TempDir(),
				Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
			r := send(t, ed, "", "set up storage")
			q1 := awaitConfirm(t, ed, 1)
			replyThenClose(t, ed, q1.ID, "postgres")
			close(gate)
			if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
				t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			helper := lastRequestOf(t, model, func(r *scripted.RecordedRequest) bool { return strings.Contains(r.Messages[0].Content, helperMarker) })
			if q1 := noteOnceIn(t, helper, "q1", "l1"); q1 != "The user replied: postgres" {
				t.Fatalf("q1 result %q", q1)
			}
			main := lastRequestOf(t, model, func(r *scripted.RecordedRequest) bool { return !strings.Contains(r.Messages[0].Content, helperMarker) })
			if got := lastToolOf(main, "a1"); got == "" || strings.Contains(got, tools.DialogClosedNote) {
				t.Fatalf("the main agent's agent_helper result %q (the helper was told, not its caller)", got)
			}
			expectSettled(t, ed, r.SessionID)
			expectValid(t, model)
		})
	}
}

// TestAskHumanDialogCloseReachesAPlanExecutor: a plan's executor asks, the
// user replies and closes the dialog while it works; the executor reads
// the note once, and its evaluator never does.
func TestAskHumanDialogCloseReachesAPlanExecutor(t *testing.T) {
	gate := make(chan struct{})
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		who, _ := r.SchedulerAgent()
		switch {
		case who == "free" && lastToolOf(r, "p1") == "":
			return tc("p1", "create_todo_list", `{"goal":"storage","items":["Choose the database"]}`)
		case who == "executor:1" && lastToolOf(r, "q1") == "":
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}
		case who == "executor:1" && lastToolOf(r, "l1") == "":
			select {
			case <-gate:
			case <-time.After(20 * time.Second):
			}
			return tc("l1", "list_files", `{}`)
		case who == "evaluator:1" && lastToolOf(r, "c1") == "":
			return tc("c1", "complete_todo_item", `{"index":1}`)
		}
		return scripted.Reply{Text: "ok"}
	})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "set up storage")
	q1 := awaitConfirm(t, ed, 1)
	replyThenClose(t, ed, q1.ID, "postgres")
	close(gate)
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	exec := lastRequestOf(t, model, func(r *scripted.RecordedRequest) bool { who, _ := r.SchedulerAgent(); return who == "executor:1" })
	if q1 := noteOnceIn(t, exec, "q1", "l1"); q1 != "The user replied: postgres" {
		t.Fatalf("q1 result %q", q1)
	}
	for _, req := range model.Requests() {
		if who, _ := req.SchedulerAgent(); who != "executor:1" {
			for _, m := range req.Messages {
				if m.Role == "tool" && strings.Contains(m.Content, tools.DialogClosedNote) {
					t.Fatalf("%s was told of a dialog it never saw: %q", who, m.Content)
				}
			}
		}
	}
	expectSettled(t, ed, r.SessionID)
	expectValid(t, model)
}

// lastRequestOf is the model's last request that match accepts.
func lastRequestOf(t *testing.T, model *scripted.Server, match func(*scripted.RecordedRequest) bool) *scripted.RecordedRequest {
	t.Helper()
	reqs := model.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if match(&reqs[i]) {
			return &reqs[i]
		}
	}
	t.Fatal("no such request")
	return nil
}

// noteOnceIn is closeNoteOnce for one request r: the note ends exactly
// one of ids' results; it returns the first without the note.
func noteOnceIn(t *testing.T, r *scripted.RecordedRequest, ids ...string) string {
	t.Helper()
	return noteOnce(t, "the agent", ids, func(id string) string {
		got := lastToolOf(r, id)
		if got == "" {
			t.Fatalf("no result for %s in the request", id)
		}
		return got
	})
}
