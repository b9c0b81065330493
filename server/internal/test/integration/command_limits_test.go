package integration

import (
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// limitsCommand is a project command whose frontmatter names a model and
// the only tools its turn may use.
const limitsCommand = "---\ndescription: Plan with limits\nmodel: cmd-model\nallowedTools: [list_files, read_file, edit, TodoWrite, complete_todo_item]\n---\nPlan and do: $ARGUMENTS\n"

var limitsAllowed = []string{"complete_todo_item", "create_todo_list", "edit", "list_files", "read_file"}

// expectLimits fails unless every request names the command's model and
// offers none but its tools.
func expectLimits(t *testing.T, what string, reqs []scripted.RecordedRequest) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatalf("%s: no requests", what)
	}
	for i, r := range reqs {
		if r.Model != "cmd-model" {
			t.Fatalf("%s: request %d asked model %q, the command names cmd-model", what, i, r.Model)
		}
		for _, n := range toolNames(r) {
			if !slices.Contains(limitsAllowed, n) {
				t.Fatalf("%s: request %d offered %s (offered %v)", what, i, n, toolNames(r))
			}
		}
	}
}

// TestCommandLimitsSurviveAPlanResumedAfterRestart: a custom command's
// turn creates a plan; the sidecar is killed while the executor streams;
// resuming the plan in a new process keeps the command's model and
// allowedTools for every agent of the plan.
func TestCommandLimitsSurviveAPlanResumedAfterRestart(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	writeTree(t, ws, map[string]string{".govibe/commands/limited.md": limitsCommand, "a.txt": "a\n"})
	model := scripted.Start(t)
	var mu sync.Mutex
	killed := false
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		who, step := r.SchedulerAgent()
		mu.Lock()
		resumed := killed
		mu.Unlock()
		switch {
		case who == "free":
			return tc("p1", "create_todo_list", `{"goal":"one item","items":["A"]}`)
		case who == "executor:1" && step == 0:
			return tc("l1", "list_files", `{}`)
		case who == "executor:1" && !resumed:
			return scripted.Reply{Text: strings.Repeat("thinking ", 2000), ChunkSize: 3, ChunkDelay: 5 * time.Millisecond}
		case who == "executor:1":
			return scripted.Reply{Text: "A done"}
		case who == "evaluator:1" && step == 0:
			return tc("c1", "complete_todo_item", `{"index":1,"summary":"checked"}`)
		case who == "final":
			return scripted.Reply{Text: "Done."}
		}
		return scripted.Reply{Text: "verdict given"}
	})
	// cmd-model is one of the user's profiles, so the command's model is sent.
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m",
		"models": []any{map[string]any{"name": "cmd-model", "model": "cmd-model"}}}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	sid := send(t, ed, "", "/limited the thing").SessionID
	ed.Await("executor streaming", 20*time.Second, func(e *fakeeditor.Editor) bool {
		for _, ev := range e.Events(sid) {
			if ev.Kind == kinds.TextDelta && ev.SubAgentTag == "executor:1" {
				return true
			}
		}
		return false
	})
	mu.Lock()
	killed = true
	mu.Unlock()
	if err := ed.Process().Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ed.Process().Wait()
	expectLimits(t, "before the kill", model.Requests())

	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	before := len(model.Requests())
	if err := ed2.Call("todo/control", protocol.TodoControlParams{SessionID: sid, Action: "resume"}, &protocol.Empty{}); err != nil {
		t.Fatalf("resume: %v\n%s", err, ed2.Stderr())
	}
	ed2.Await("the resumed run to finish", 30*time.Second, func(e *fakeeditor.Editor) bool {
		for _, ev := range e.Events(sid) {
			if ev.Kind == kinds.TurnFinished {
				return true
			}
		}
		return false
	})
	after := model.Requests()[before:]
	var agents []string
	for _, r := range after {
		who, _ := r.SchedulerAgent()
		agents = append(agents, who)
	}
	if !slices.Contains(agents, "executor:1") || !slices.Contains(agents, "evaluator:1") || !slices.Contains(agents, "final") {
		t.Fatalf("the resumed plan ran %v", agents)
	}
	expectLimits(t, "after the restart", after)
	if load := expectSettled(t, ed2, sid); load.Todo == nil || load.Todo.Items[0].Status != "done" {
		t.Fatalf("plan after the resume: %+v", load.Todo)
	}
	expectValid(t, model)

	// The next plain message is back on the session's model and tools.
	r := send(t, ed2, sid, "hello")
	ed2.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
	last := model.Requests()[len(model.Requests())-1]
	if last.Model != "m" || !slices.Contains(toolNames(last), "run_shell_command") {
		t.Fatalf("a plain message after the plan: model %q tools %v", last.Model, toolNames(last))
	}
}

// TestCommandLimitsSurviveAParkedRunAfterRestart: a custom command's turn
// waits on an edit confirmation when the sidecar stops; accepting in the
// next process runs the rest of the turn on the command's model with its
// tools only.
func TestCommandLimitsSurviveAParkedRunAfterRestart(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	writeTree(t, ws, map[string]string{".govibe/commands/limited.md": limitsCommand, "a.txt": aText})
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{editTwo}}, scripted.Reply{Text: "Edited."})
	// cmd-model is one of the user's profiles, so the command's model is sent.
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m",
		"models": []any{map[string]any{"name": "cmd-model", "model": "cmd-model"}}}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	r := send(t, ed, "", "/limited capitalise line two")
	awaitConfirm(t, ed, 1)
	stoppers[0].stop(t, ed)

	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	c := awaitConfirm(t, ed2, 1)
	resolve(t, ed2, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	if fin := ed2.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed2.Stderr())
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	expectLimits(t, "the parked command turn", reqs)
	expectValid(t, model)
}
