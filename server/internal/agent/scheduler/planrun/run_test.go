package planrun_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

func threeItemPlan() map[string]any {
	return map[string]any{"goal": "create three files", "items": []any{
		map[string]any{"title": "A", "description": "create a.txt", "acceptance": "a.txt exists"},
		"B",
		map[string]any{"title": "C", "acceptance": "c.txt exists"},
	}}
}

// A three-item plan runs end to end: executor, evaluator, done; item B is
// sent back once and retried.
func TestScheduleThreeItemsWithSendBack(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", threeItemPlan()))).
		on("executor:1#1", calls(call("w1", "write_file", map[string]any{"filePath": "a.txt", "content": "a\n"})), text("wrote a.txt")).
		on("evaluator:1#1", calls(call("s1", "run_shell_command", map[string]any{"command": "cat a.txt"})),
			calls(call("c1", "complete_todo_item", map[string]any{"index": 1, "summary": "a.txt holds a"})), text("item 1 verified")).
		on("executor:2#1", text("I think B is done")).
		on("evaluator:2#1", calls(call("s2", "list_files", map[string]any{})), text("b.txt is missing")).
		on("executor:2#2", calls(call("w2", "write_file", map[string]any{"filePath": "b.txt", "content": "b\n"})), text("wrote b.txt")).
		on("evaluator:2#2", calls(call("c2", "complete_todo_item", map[string]any{"title": "B", "summary": "b.txt exists"})), text("ok")).
		on("executor:3#1", calls(call("w3", "write_file", map[string]any{"filePath": "c.txt", "content": "c\n"})), text("wrote c.txt")).
		on("evaluator:3#1", calls(call("c3", "complete_todo_item", map[string]any{"index": 3})), text("ok")).
		on("final#1", text("All three files exist; B needed a second attempt."))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "please create three files")
	s.check(t)
	noViolations(x)

	want := []string{"free#1", "executor:1#1", "executor:1#1", "evaluator:1#1", "evaluator:1#1", "evaluator:1#1",
		"executor:2#1", "evaluator:2#1", "evaluator:2#1", "executor:2#2", "executor:2#2", "evaluator:2#2", "evaluator:2#2",
		"executor:3#1", "executor:3#1", "evaluator:3#1", "evaluator:3#1", "final#1"}
	if got := s.keys(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("agents ran in order\n%v\nwant\n%v", got, want)
	}
	p := planOf(x, sid)
	if got := statuses(p); got != "A=done/1 B=done/2 C=done/1" {
		t.Fatalf("plan %s", got)
	}
	if p.Phase != scheduler.PhaseFree || p.FinalPending || p.Current != -1 {
		t.Fatalf("scheduling should be over: %+v", p)
	}
	if p.Items[0].Summary != "a.txt holds a" {
		t.Fatalf("item 1 summary %q", p.Items[0].Summary)
	}
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		if _, err := os.Stat(filepath.Join(x.Dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	// The retry's executor got the evaluator's findings in its first message.
	var retry string
	for _, r := range x.Model.Requests() {
		if k, _ := keyOf(&r); k == "executor:2#2" {
			retry = r.LastUserMessage()
			break
		}
	}
	if !strings.Contains(retry, "b.txt is missing") || !strings.Contains(retry, "attempt 2") {
		t.Fatalf("retry prompt lacks the findings:\n%s", retry)
	}
	// Roles show in the tools offered.
	ex, ev, fr := s.tools("executor:1#1"), s.tools("evaluator:1#1"), s.tools("free#1")
	for _, n := range []string{"create_todo_list", "complete_todo_item", "compact"} {
		if has(ex, n) {
			t.Errorf("executor was offered %s", n)
		}
	}
	for _, n := range []string{"edit", "write_file", "delete_file", "create_directory", "compact", "investigate"} {
		if has(ev, n) {
			t.Errorf("evaluator was offered %s", n)
		}
	}
	for _, n := range []string{"create_todo_list", "complete_todo_item", "run_shell_command", "read_file"} {
		if !has(ev, n) {
			t.Errorf("evaluator was not offered %s", n)
		}
	}
	if !has(fr, "create_todo_list") || !has(fr, "investigate") || !has(ex, "write_file") {
		t.Errorf("free %v / executor %v", fr, ex)
	}
	// The item is named in each agent's first message.
	res := toolResults(x, sid)
	if !strings.HasPrefix(res["s1"], "ok: ") || !strings.HasPrefix(res["c1"], "ok: ") {
		t.Fatalf("evaluator tools: %v", res)
	}
	// Every change was published with the state.
	todos := x.EventsOf(sid, kinds.Todo)
	if len(todos) < 10 {
		t.Fatalf("only %d todo events", len(todos))
	}
	var got []string
	for _, it := range todos[len(todos)-1].Payload.(eventdata.TodoState).Items {
		got = append(got, fmt.Sprintf("%s=%s/%d", it.Title, it.Status, it.Attempts))
	}
	if s := strings.Join(got, " "); s != "A=done/1 B=done/2 C=done/1" {
		t.Fatalf("last todo event %s", s)
	}
	// The context block counts a plan only while it has items remaining.
	if p := x.E.Plans.Todo(context.Background(), sid); p != nil && p.Remaining() > 0 {
		t.Fatalf("finished plan still counted in the context block: %+v", p)
	}
}

// The model track after scoped compaction holds, for each agent, exactly
// one summary built from its tool calls; the UI track keeps everything and
// survives a restart.
func TestScopedCompactionExactTrackAndUITrackAfterReload(t *testing.T) {
	s := newScript().
		on("free#1", scripted.Reply{Text: "planning", ToolCalls: []scripted.ToolCall{call("p1", "create_todo_list", map[string]any{"goal": "make a", "items": []any{"Write a.txt"}})}}).
		on("executor:1#1",
			calls(call("w1", "write_file", map[string]any{"filePath": "a.txt", "content": "a\n"})),
			calls(call("s1", "run_shell_command", map[string]any{"command": "cat a.txt"}), call("s2", "run_shell_command", map[string]any{"command": "ls missing-dir"})),
			text("a.txt is written")).
		on("evaluator:1#1", calls(call("c1", "complete_todo_item", map[string]any{"index": 1, "summary": "checked"})), text("done")).
		on("final#1", text("Summary: a.txt written."))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "make a")
	s.check(t)
	abs := filepath.Join(x.Dir, "a.txt")
	track := x.Track(sid)
	want := []llm.Message{
		{Role: llm.RoleUser, Content: agent.ContextBlock(agent.ContextState{EditEnabled: true}) + "make a"},
		{Role: llm.RoleAssistant, Content: "planning", ToolCalls: []llm.ToolCall{{ID: "p1", Name: "create_todo_list", Arguments: `{"goal":"make a","items":["Write a.txt"]}`}}},
		{Role: llm.RoleTool, ToolCallID: "p1", Content: "Todo list created with 1 items. The scheduler now runs each item with an executor and an evaluator."},
		{Role: llm.RoleUser, Content: "[executor:1 finished item 1/1 \"Write a.txt\", attempt 1]\nFinal reply:\na.txt is written\nFiles changed: " + abs +
			"\nCommands run:\n- cat a.txt (exit 0)\n- ls missing-dir (exit 2)\nTool calls: 3"},
		{Role: llm.RoleUser, Content: "[evaluator:1 evaluated item 1 \"Write a.txt\"]\nVerdict: done — checked\nPlan: unchanged"},
		{Role: llm.RoleUser, Content: "[scheduler] Every todo item has been handled. Results:\n1. Write a.txt — done: checked\nSummarise for the user what was done, what failed and why. Do not start a new plan."},
		{Role: llm.RoleAssistant, Content: "Summary: a.txt written."},
	}
	if len(track) != len(want) {
		t.Fatalf("track has %d messages, want %d:\n%s", len(track), len(want), dump(track))
	}
	for i := range want {
		if !compaction.SameMessage(track[i], want[i]) {
			t.Fatalf("track[%d]\n%s\nwant\n%s", i, dump(track[i:i+1]), dump(want[i:i+1]))
		}
	}

	x.Reopen(nil)
	l, err := x.E.Sessions.Load(context.Background(), sid, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range l.Page.Messages {
		var parts []string
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				parts = append(parts, "call:"+p.ToolCall.Name+":"+string(p.ToolCall.Status))
			case p.ToolResult != nil:
				parts = append(parts, "result:"+p.ToolResult.ToolCallID)
			case p.Kind == store.PartText:
				parts = append(parts, "text")
			}
		}
		got = append(got, fmt.Sprintf("%s/%s/%s[%s]", m.Role, m.SubAgentTag, m.Status, strings.Join(parts, ",")))
	}
	wantUI := []string{
		"user/free/done[text]",
		"assistant/free/done[text,call:create_todo_list:done,result:p1]",
		"user/executor:1/done[text]",
		"assistant/executor:1/done[call:write_file:done,result:w1,call:run_shell_command:done,call:run_shell_command:error,result:s1,result:s2,text]",
		"user/evaluator:1/done[text]",
		"assistant/evaluator:1/done[call:complete_todo_item:done,result:c1,text]",
		"user/free/done[text]",
		"assistant/free/done[text]",
	}
	if strings.Join(got, "\n") != strings.Join(wantUI, "\n") {
		t.Fatalf("UI track after reload:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantUI, "\n"))
	}
	if l.Todo == nil || statuses(l.Todo) != "Write a.txt=done/1" {
		t.Fatalf("loaded todo %+v", l.Todo)
	}
}

func dump(ms []llm.Message) string {
	b, _ := json.MarshalIndent(ms, "", " ")
	return string(b)
}
