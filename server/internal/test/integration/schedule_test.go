package integration

import (
	"fmt"
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

func tc(id, name, args string) scripted.Reply {
	return scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

// The sidecar is SIGKILLed while an executor streams; a new process shows
// the plan with the item interrupted, and todo/control resume continues
// the same executor (its own earlier messages included), then the
// evaluator, the next item and the final phase.
func TestScheduleResumeAfterSIGKILLMidExecutor(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	model := scripted.Start(t)
	var mu sync.Mutex
	var order []string
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		who, step := r.SchedulerAgent()
		resumed := strings.Contains(r.LastUserMessage(), "continue")
		mu.Lock()
		order = append(order, fmt.Sprintf("%s/%d", who, step))
		mu.Unlock()
		switch {
		case who == "free":
			return tc("p1", "create_todo_list", `{"goal":"two files","items":["A","B"]}`)
		case who == "executor:1" && step == 0:
			return tc("l1", "list_files", `{}`)
		case who == "executor:1" && !resumed:
			// Long enough to be killed mid-stream.
			return scripted.Reply{Text: strings.Repeat("thinking ", 2000), ChunkSize: 3, ChunkDelay: 5 * time.Millisecond}
		case who == "executor:1":
			return scripted.Reply{Text: "A done after the restart"}
		case who == "evaluator:1" && step == 0:
			return tc("c1", "complete_todo_item", `{"index":1,"summary":"A checked"}`)
		case who == "executor:2":
			return scripted.Reply{Text: "B done"}
		case who == "evaluator:2" && step == 0:
			return tc("c2", "complete_todo_item", `{"index":2}`)
		case who == "final":
			return scripted.Reply{Text: "Both items are done."}
		}
		return scripted.Reply{Text: "verdict given"}
	})
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	res := send(t, ed, "", "do two things")
	sid := res.SessionID
	ed.Await("executor streaming", 20*time.Second, func(e *fakeeditor.Editor) bool {
		for _, ev := range e.Events(sid) {
			if ev.Kind == kinds.TextDelta && ev.SubAgentTag == "executor:1" {
				return true
			}
		}
		return false
	})
	var sawTodo bool
	for _, ev := range ed.Events(sid) {
		if ev.Kind == kinds.Todo && ev.Todo != nil && len(ev.Todo.Items) == 2 && ev.Todo.Items[0].Status == "running" {
			sawTodo = true
		}
	}
	if !sawTodo {
		t.Fatal("no todo event showed item 1 running before the kill")
	}
	if err := ed.Process().Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ed.Process().Wait()

	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	var load protocol.SessionLoadResult
	if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
		t.Fatal(err)
	}
	if load.Todo == nil || load.Todo.Items[0].Status != "interrupted" || load.Todo.Items[0].Agent != "executor:1" ||
		load.Todo.Items[1].Status != "pending" || load.Todo.Phase != "scheduling" || load.Todo.Current != 0 {
		t.Fatalf("todo after the kill: %+v", load.Todo)
	}
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
	reqs := model.Requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("no request after resume")
	}
	first := reqs[0]
	if who, _ := first.SchedulerAgent(); who != "executor:1" {
		t.Fatalf("resumed at %s, want executor:1", who)
	}
	var ownRound bool
	for _, m := range first.Messages {
		ownRound = ownRound || m.ToolCallID == "l1"
	}
	if !ownRound {
		t.Fatal("the resumed executor lost its own earlier messages")
	}
	for _, q := range reqs {
		if len(q.Violations) > 0 {
			t.Fatalf("request after the kill violates provider rules: %v", q.Violations)
		}
	}
	if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range load.Todo.Items {
		got = append(got, fmt.Sprintf("%s=%s/%d", it.Title, it.Status, it.Attempts))
	}
	if strings.Join(got, " ") != "A=done/1 B=done/1" || load.Todo.Phase != "free" {
		t.Fatalf("final plan %v phase %s", got, load.Todo.Phase)
	}
	// The UI track keeps the killed executor's message and groups by tag.
	// The panel's Resume spoke, not the person: its message is marked.
	tags := map[string]int{}
	controls := 0
	for _, m := range load.Messages {
		tags[m.SubAgentTag]++
		if m.Role == "user" && m.Origin == "control" {
			controls++
		}
	}
	if controls != 1 {
		t.Fatalf("%d button messages marked after todo/control resume, want 1", controls)
	}
	for _, tag := range []string{"free", "executor:1", "evaluator:1", "executor:2", "evaluator:2"} {
		if tags[tag] == 0 {
			t.Fatalf("no %s messages after reload: %v", tag, tags)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	evals := 0
	for _, o := range order {
		if strings.HasPrefix(o, "evaluator:1/0") {
			evals++
		}
	}
	if evals != 1 {
		t.Fatalf("evaluator 1 started %d times: %v", evals, order)
	}
}
