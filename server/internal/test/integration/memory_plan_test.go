package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestMemoryReminderOncePerTurnAfterAPlan: the executors of a plan create
// files the L2 inventory does not list. No request inside that turn (free
// run, executors, evaluators, final) carries a memory reminder, so the
// model track's prefix stays what it was; the next message's context
// block names every file once, and the message after it names none. The
// system prompt never changes.
func TestMemoryReminderOncePerTurnAfterAPlan(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		writeTree(t, ws, map[string]string{".govibe/memory/L2-inventory.md": "# Inventory\n- `README.md` — intro\n", "README.md": "# demo\n"})
		model := scripted.Start(t)
		model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
			who, step := r.SchedulerAgent()
			switch {
			case who == "free" && strings.Contains(r.LastUserMessage(), "two files") && lastToolOf(r, "p1") == "":
				return tc("p1", "create_todo_list", `{"goal":"two files","items":["A","B"]}`)
			case who == "executor:1" && step == 0:
				return tc("w1", "write_file", `{"filePath":"a.go","content":"package a\n"}`)
			case who == "executor:2" && step == 0:
				return tc("w2", "write_file", `{"filePath":"b.go","content":"package b\n"}`)
			case who == "evaluator:1" && step == 0:
				return tc("c1", "complete_todo_item", `{"index":1}`)
			case who == "evaluator:2" && step == 0:
				return tc("c2", "complete_todo_item", `{"index":2}`)
			}
			return scripted.Reply{Text: "ok"}
		})
		settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true}
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789", Settings: settings})
		r := send(t, ed, "", "make two files")
		if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
			t.Fatalf("plan turn: %s", fin.Status)
		}
		planReqs := len(model.Requests())
		for i, req := range model.Requests() {
			for _, m := range req.Messages {
				if strings.Contains(m.Content, "Memory: ") {
					t.Fatalf("request %d inside the plan's turn carries a reminder:\n%s", i, m.Content)
				}
			}
		}
		r2 := send(t, ed, r.SessionID, "next")
		ed.AwaitTurnFinished(r.SessionID, r2.TurnID, 20*time.Second)
		reqs := model.Requests()
		if len(reqs) != planReqs+1 {
			t.Fatalf("%d requests for one plain message", len(reqs)-planReqs)
		}
		u := reqs[planReqs].LastUserMessage()
		want := "Memory: .govibe/memory/L2-inventory.md does not list a.go, b.go; update it (one line per file)."
		if block, _, _ := strings.Cut(u, "</context>"); !strings.Contains(block, want) || strings.Count(u, "Memory: ") != 1 {
			t.Fatalf("the next message's context block, want %q once:\n%s", want, u)
		}
		r3 := send(t, ed, r.SessionID, "again")
		ed.AwaitTurnFinished(r.SessionID, r3.TurnID, 20*time.Second)
		reqs = model.Requests()
		last := reqs[len(reqs)-1]
		if strings.Count(strings.Join(func() []string {
			var all []string
			for _, m := range last.Messages {
				all = append(all, m.Content)
			}
			return all
		}(), "\n"), "Memory: ") != 1 {
			t.Fatal("the reminder was given again (the track should hold it once, in the message that carried it)")
		}
		// Each role has its own system prompt (its contract and the tools
		// it is offered, whose definitions differ too), stable across its
		// requests: the reminder never rewrites it.
		sys := map[string]string{}
		for i, req := range reqs {
			if strings.HasPrefix(req.Messages[0].Content, "You review") {
				continue
			}
			who, _ := req.SchedulerAgent()
			role, _, _ := strings.Cut(who, ":")
			if role == "final" && !strings.HasPrefix(req.LastUserMessage(), "[scheduler]") {
				role = "free" // a later turn: its history holds the closing prompt
			}
			if s, ok := sys[role]; ok && s != req.Messages[0].Content {
				t.Fatalf("request %d (%s): the system prompt changed", i, who)
			}
			sys[role] = req.Messages[0].Content
		}
	})
}
