package planrun_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Stop cancels the running executor and leaves the plan persisted with
// the item interrupted; "continue" resumes the same agent with its own
// messages, then the plan finishes. Skip and Retry act on items.
func TestTodoStopResumeSkipRetry(t *testing.T) {
	slow := scripted.Reply{Text: strings.Repeat("working ", 200), ChunkSize: 4, ChunkDelay: 5 * time.Millisecond}
	// B's executor streams for 40 s: the skip cancels it long before. Were
	// it to finish first, its evaluator (unscripted) would send B back for
	// a second attempt, which a busy machine once let happen before the
	// skip landed (B=skipped/2).
	slowB := scripted.Reply{Text: strings.Repeat("working ", 200), ChunkSize: 4, ChunkDelay: 100 * time.Millisecond}
	s := newScript().
		on("free#1", calls(call("p1", "create_todo_list", map[string]any{"goal": "g", "items": []any{"A", "B"}}))).
		on("executor:1#1", calls(call("r1", "list_files", map[string]any{})), slow, text("A finished after resume")).
		on("evaluator:1#1", calls(call("c1", "complete_todo_item", map[string]any{"index": 1})), text("ok")).
		on("executor:2#1", slowB).
		on("final#1", text("done"))
	x := newSchedEnv(t, s, nil)
	ctx := context.Background()
	sid, _, err := x.E.Send(ctx, engine.SendParams{Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	// Stop while the executor's second reply streams.
	x.Await("executor streaming", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.TextDelta) {
			if ev.SubAgentTag == "executor:1" {
				return true
			}
		}
		return false
	})
	if err := x.E.TodoControl(ctx, sid, planrun.Stop, 0); err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "" && st != "cancelled" {
		t.Fatalf("status %s", st)
	}
	p := planOf(x, sid)
	if p.Items[0].Status != scheduler.Interrupted || p.Stage != scheduler.RoleExecutor || p.AgentStart < 0 {
		t.Fatalf("after stop: %+v", p)
	}
	// The context block shows the plan (HasTodo) with its remaining items.
	if tp := x.E.Plans.Todo(ctx, sid); tp == nil || tp.Remaining() != 2 {
		t.Fatalf("context block state %+v", tp)
	}
	// Resume: the executor continues its own messages (its prompt and the
	// list_files round are in the request), not a fresh attempt.
	if err := x.E.TodoControl(ctx, sid, planrun.Resume, 0); err != nil {
		t.Fatal(err)
	}
	// A is done and B's executor has begun (its reply is still streaming).
	waitTodo(x, sid, func(p *scheduler.Plan) bool {
		return p.Current == 1 && p.Items[1].Attempts == 1 && p.Items[1].Status == scheduler.Running
	})
	var resumed *scripted.RecordedRequest
	for _, r := range x.Model.Requests() {
		if k, _ := keyOf(&r); k == "executor:1#1" && strings.Contains(r.LastUserMessage(), "continue") {
			resumed = &r
		}
	}
	if resumed == nil {
		t.Fatalf("no resumed executor request with the continue message: %v", s.keys())
	}
	foundPrompt, foundRound := false, false
	for _, m := range resumed.Messages {
		foundPrompt = foundPrompt || strings.HasPrefix(m.Content, "[executor:1] You are the executor")
		foundRound = foundRound || m.ToolCallID == "r1"
	}
	if !foundPrompt || !foundRound {
		t.Fatal("the resumed executor lost its own messages")
	}
	if p := planOf(x, sid); p.Items[0].Status != scheduler.Done || p.Items[0].Attempts != 1 {
		t.Fatalf("item A after resume: %+v", p.Items[0])
	}
	// Skip while B runs: the agent stops, B is skipped, the plan goes on
	// to its final phase. Wait until B's executor is really running, or the
	// skip can land before it starts and leave no attempt behind (which
	// changes the attempt the retry below is scripted for).
	x.Await("executor 2 streaming", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.TextDelta) {
			if ev.SubAgentTag == "executor:2" {
				return true
			}
		}
		return false
	})
	if err := x.E.TodoControl(ctx, sid, planrun.Skip, 1); err != nil {
		t.Fatal(err)
	}
	x.E.Wait(sid)
	waitTodo(x, sid, func(p *scheduler.Plan) bool { return p.Phase == scheduler.PhaseFree })
	if got := statuses(planOf(x, sid)); got != "A=done/1 B=skipped/1" {
		t.Fatalf("after skip %s", got)
	}
	// Bad controls are clear errors and change nothing.
	for _, c := range []struct {
		action string
		index  int
		want   string
	}{
		{planrun.Skip, 0, "already done"},
		{planrun.Retry, 0, "only failed, skipped or interrupted items can be retried"},
		{planrun.Skip, 7, "item 8 does not exist"},
		{planrun.Stop, 0, "not running"},
		{planrun.Resume, 0, "nothing left to run"},
		{"explode", 0, "unknown todo action"},
	} {
		err := x.E.TodoControl(ctx, sid, c.action, c.index)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s %d: %v, want %q", c.action, c.index, err, c.want)
		}
	}
	if got := statuses(planOf(x, sid)); got != "A=done/1 B=skipped/1" {
		t.Fatalf("a refused control changed the plan: %s", got)
	}
	// Retry a skipped item: it gets fresh attempts (its executor's request
	// is attempt 1 again, now answered at once); "continue" runs it.
	s.reset("executor:2#1", text("B done now")).
		on("evaluator:2#1", calls(call("c2", "complete_todo_item", map[string]any{"index": 2})), text("ok")).
		on("final#2", text("done again"))
	if err := x.E.TodoControl(ctx, sid, planrun.Retry, 1); err != nil {
		t.Fatal(err)
	}
	if p := planOf(x, sid); p.Items[1].Status != scheduler.Pending || p.Phase != scheduler.PhaseScheduling {
		t.Fatalf("after retry %+v", p)
	}
	x.Turn(sid, "continue")
	if got := statuses(planOf(x, sid)); got != "A=done/1 B=done/1" {
		t.Fatalf("after retried run %s", got)
	}
}

// A session without a plan refuses every control.
func TestTodoControlWithoutPlan(t *testing.T) {
	x := newSchedEnv(t, newScript(), nil)
	s, err := x.E.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.E.TodoControl(context.Background(), s.ID, planrun.Resume, 0); err == nil || !strings.Contains(err.Error(), "no todo list") {
		t.Fatalf("got %v", err)
	}
	if err := x.E.TodoControl(context.Background(), "nope", planrun.Resume, 0); err == nil {
		t.Fatal("unknown session accepted")
	}
}
