package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestCreateTodoListGoesThroughPlanReview: the main agent's
// create_todo_list is reviewed before the scheduler takes over; a rejected
// plan comes back to the model as a failed tool result and no plan exists
// until a revised one is approved.
func TestCreateTodoListGoesThroughPlanReview(t *testing.T) {
	x := newRV(t, config.Values{"todolistReview.enabled": true}, false, "")
	x.script(review.KindPlan, verdict(false, "the plan never runs the tests"), verdict(true))
	x.mainScript(
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "p1", Name: "create_todo_list", Arguments: `{"goal":"fix it","items":["fix the bug"]}`}}},
		scripted.Reply{Text: "I will revise the plan."},
	)
	sid := x.send("fix the failing build")
	x.finish(sid)
	res := x.toolResults()
	if len(res) != 1 || !strings.Contains(res[0], "not accepted") || !strings.Contains(res[0], "never runs the tests") {
		t.Fatalf("tool results %q", res)
	}
	if p := x.e.Plans.Todo(context.Background(), sid); p != nil && len(p.Items) > 0 {
		t.Fatalf("a rejected plan must not be stored: %+v", p)
	}
	if n := len(x.requests(string(review.KindPlan))); n != 1 {
		t.Fatalf("%d plan reviews", n)
	}
	if reqs := x.requests(string(review.KindPlan)); !strings.Contains(reqs[0].Messages[1].Content, "fix the failing build") {
		t.Fatal("the reviewer must see the user's request")
	}
}
