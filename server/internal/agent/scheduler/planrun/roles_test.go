package planrun_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// An evaluator inserts an item after the current one; the scheduler runs it.
func TestScheduleEvaluatorInsertsItem(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A", "C"}}))).
		on("executor:1#1", text("did A")).
		on("evaluator:1#1",
			// Models often resend the whole list: A (current) is recognised.
			calls(call("p2", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A", map[string]any{"title": "B", "acceptance": "b"}, "C"}})),
			calls(call("c1", "complete_todo_item", map[string]any{"index": 1})), text("A ok, B inserted")).
		on("executor:2#1", text("did B")).
		on("evaluator:2#1", calls(call("c2", "complete_todo_item", map[string]any{"title": "B"})), text("ok")).
		on("executor:3#1", text("did C")).
		on("evaluator:3#1", calls(call("c3", "complete_todo_item", map[string]any{"index": 3})), text("ok")).
		on("final#1", text("done"))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "go")
	s.check(t)
	if got := statuses(planOf(x, sid)); got != "A=done/1 B=done/1 C=done/1" {
		t.Fatalf("plan %s", got)
	}
	if r := toolResults(x, sid)["p2"]; r != `ok: Plan changed: inserted "B".` {
		t.Fatalf("plan change result %q", r)
	}
	tr := x.Track(sid)
	var eval string
	for _, m := range tr {
		if strings.HasPrefix(m.Content, "[evaluator:1 evaluated") {
			eval = m.Content
		}
	}
	if !strings.Contains(eval, `Plan changed: inserted "B"`) {
		t.Fatalf("evaluator summary lacks the plan change: %q", eval)
	}
}

// An executor calling complete_todo_item is refused (it is not offered
// either), and no misbehaving model completes an item other than the
// current one.
func TestScheduleRefusesPlanToolsOutsideTheirRole(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A", "B"}}))).
		on("executor:1#1", calls(call("x1", "complete_todo_item", map[string]any{"index": 1}), call("x2", "create_todo_list", map[string]any{"goal": "g", "items": []any{"Z"}})), text("tried")).
		on("evaluator:1#1", calls(call("e1", "complete_todo_item", map[string]any{"index": 2})), calls(call("e2", "complete_todo_item", map[string]any{"index": 1})), text("ok")).
		on("executor:2#1", text("did B")).
		on("evaluator:2#1", calls(call("e3", "complete_todo_item", map[string]any{"index": 2})), text("ok")).
		on("final#1", text("done"))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "go")
	s.check(t)
	res := toolResults(x, sid)
	for _, id := range []string{"x1", "x2"} {
		if !strings.HasPrefix(res[id], "error: ") || !strings.Contains(res[id], "not available to this agent") {
			t.Fatalf("executor call %s: %q", id, res[id])
		}
	}
	if !strings.Contains(res["e1"], `item 2/2 "B" is not the item in progress`) {
		t.Fatalf("evaluator completing another item: %q", res["e1"])
	}
	if got := statuses(planOf(x, sid)); got != "A=done/1 B=done/1" {
		t.Fatalf("plan %s", got)
	}
	if has(s.tools("executor:1#1"), "complete_todo_item") || has(s.tools("free#1"), "complete_todo_item") {
		t.Fatal("complete_todo_item offered outside the evaluator")
	}
}

// An evaluator calling edit (or a write, or a mutating command) is
// refused and nothing changes; read-only commands run.
func TestScheduleEvaluatorCannotWrite(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A"}}))).
		on("executor:1#1", calls(call("w1", "write_file", map[string]any{"filePath": "a.txt", "content": "one\n"})), text("wrote")).
		on("evaluator:1#1",
			calls(call("r1", "read_file", map[string]any{"filePath": "a.txt"})),
			calls(call("e1", "edit", map[string]any{"filePath": "a.txt", "oldString": "one", "newString": "two"}),
				call("e2", "write_file", map[string]any{"filePath": "b.txt", "content": "x"}),
				call("e3", "run_shell_command", map[string]any{"command": "touch c.txt"}),
				call("e4", "run_shell_command", map[string]any{"command": "cat a.txt"})),
			calls(call("c1", "complete_todo_item", map[string]any{"index": 1})), text("ok")).
		on("final#1", text("done"))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "go")
	s.check(t)
	res := toolResults(x, sid)
	for _, id := range []string{"e1", "e2"} {
		if !strings.HasPrefix(res[id], "error: ") || !strings.Contains(res[id], "not available to this agent") {
			t.Fatalf("%s: %q", id, res[id])
		}
	}
	if !strings.Contains(res["e3"], "evaluators may only run commands classified read-only") {
		t.Fatalf("mutating command: %q", res["e3"])
	}
	if !strings.HasPrefix(res["e4"], "ok: ") || !strings.Contains(res["e4"], "one") {
		t.Fatalf("read-only command: %q", res["e4"])
	}
	if b, _ := os.ReadFile(filepath.Join(x.Dir, "a.txt")); string(b) != "one\n" {
		t.Fatalf("a.txt changed: %q", b)
	}
	for _, f := range []string{"b.txt", "c.txt"} {
		if _, err := os.Stat(filepath.Join(x.Dir, f)); err == nil {
			t.Fatalf("%s was created", f)
		}
	}
	if has(s.tools("evaluator:1#1"), "edit") {
		t.Fatal("edit offered to the evaluator")
	}
}

// An item whose evaluator never decides is retried, then fails; the plan
// goes on and the final phase says so.
func TestScheduleItemExhaustsAttempts(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A", "B"}}))).
		on("executor:1#1", text("try 1")).on("evaluator:1#1", text("still broken 1")).
		on("executor:1#2", text("try 2")).on("evaluator:1#2", text("still broken 2")).
		on("executor:2#1", text("did B")).
		on("evaluator:2#1", calls(call("c2", "complete_todo_item", map[string]any{"index": 2})), text("ok")).
		on("final#1", text("A failed, B done"))
	x := newSchedEnv(t, s, config.Values{"scheduler.maxRetries": float64(1)})
	sid, _ := x.Turn("", "go")
	s.check(t)
	p := planOf(x, sid)
	if got := statuses(p); got != "A=failed/2 B=done/1" {
		t.Fatalf("plan %s", got)
	}
	if !strings.Contains(p.Items[0].Summary, "still broken 2") {
		t.Fatalf("failure summary %q", p.Items[0].Summary)
	}
	var final string
	for _, r := range x.Model.Requests() {
		if k, _ := keyOf(&r); k == "final#1" {
			final = r.LastUserMessage()
		}
	}
	if !strings.Contains(final, "1. A — failed: failed after 2 attempts: still broken 2") {
		t.Fatalf("final prompt:\n%s", final)
	}
}

// Per-agent turn limit: an executor that keeps calling tools is stopped
// at govibe.scheduler.maxAgentTurns, the limit is reported, and the
// evaluator decides.
func TestScheduleAgentTurnLimit(t *testing.T) {
	loop := func(id string) scripted.Reply { return calls(call(id, "list_files", map[string]any{})) }
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A"}}))).
		on("executor:1#1", loop("l1"), loop("l2"), loop("l3"), loop("l4")).
		on("evaluator:1#1", calls(call("c1", "complete_todo_item", map[string]any{"index": 1})), text("good enough"))
	s.on("final#1", text("done"))
	x := newSchedEnv(t, s, config.Values{"scheduler.maxAgentTurns": float64(2)})
	sid, _ := x.Turn("", "go")
	s.check(t)
	n := 0
	for _, k := range s.keys() {
		if k == "executor:1#1" {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("executor made %d requests, want 3 (rounds 0..2)", n)
	}
	var sum string
	for _, m := range x.Track(sid) {
		if strings.HasPrefix(m.Content, "[executor:1 finished") {
			sum = m.Content
		}
	}
	if !strings.Contains(sum, "Ended early: the limit of 2 tool rounds was reached") {
		t.Fatalf("summary %q", sum)
	}
}

// A side conversation never starts a todo schedule: create_todo_list stays
// offered (the tool list must not change, for the prefix cache) but is
// refused when called.
func TestBTWNeverStartsSchedule(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A"}})), text("ok, no plan"))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", `\btw plan something`)
	s.check(t)
	if planOf(x, sid) != nil {
		t.Fatal("a btw turn created a plan")
	}
	if !has(s.tools("free#1"), "create_todo_list") {
		t.Fatal("a btw turn must offer the same tools as the main conversation")
	}
	if r := toolResults(x, sid)["p1"]; !strings.Contains(r, "cannot be used now") || !strings.Contains(r, "btw") {
		t.Fatalf("result %q", r)
	}
}

// A failed create_todo_list (bad arguments) does not hand over: the free
// run continues and the model corrects itself.
func TestScheduleInvalidPlanKeepsFreeRun(t *testing.T) {
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"items": []any{"A"}})),
			calls(call("p2", "create_todo_list", map[string]any{"goal": "g", "items": []any{map[string]any{"description": "no title"}}})),
			text("I will do it directly"))
	x := newSchedEnv(t, s, nil)
	sid, _ := x.Turn("", "go")
	s.check(t)
	res := toolResults(x, sid)
	if !strings.Contains(res["p1"], "goal is required") || !strings.Contains(res["p2"], "items[0]: title is required") {
		t.Fatalf("results %v", res)
	}
	if planOf(x, sid) != nil {
		t.Fatal("an invalid plan was stored")
	}
}
