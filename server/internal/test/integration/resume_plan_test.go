package integration

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// planScript is a model that plans one item, a plan reviewer that always
// rejects (counted), and the scheduler's agents for that item.
func planScript(t *testing.T, reviews *atomic.Int64) *scripted.Server {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, "You review the plan") {
			reviews.Add(1)
			return scripted.Reply{Text: `{"approved": false, "problems": [{"severity": "error", "message": "no test checks the fix"}], "suggestion": "add a test"}`}
		}
		who, step := r.SchedulerAgent()
		switch {
		case who == "free" && !strings.Contains(r.LastUserMessage(), "plan") && lastToolOf(r, "p1") == "":
			return scripted.Reply{Text: "?"}
		case who == "free" && lastToolOf(r, "p1") == "":
			return tc("p1", "create_todo_list", `{"goal":"fix the bug","items":["fix the bug"]}`)
		case who == "free":
			return scripted.Reply{Text: "Understood, no plan."}
		case who == "executor:1":
			return scripted.Reply{Text: "Fixed."}
		case who == "evaluator:1" && step == 0:
			return tc("c1", "complete_todo_item", `{"index":1,"summary":"checked"}`)
		case who == "final":
			return scripted.Reply{Text: "The plan is done."}
		}
		return scripted.Reply{Text: "verdict given"}
	})
	return model
}

// lastToolOf is the result call id got in r, or "".
func lastToolOf(r *scripted.RecordedRequest, id string) string {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.Content
		}
	}
	return ""
}

// TestPlanQuestionResumedAfterRestart: the plan reviewer rejects the plan
// (maxAttempts 1), so the user is asked whether to use it anyway; the
// sidecar stops while the question waits (killed, or its stdin closed by
// a window reload, or a clean exit). The next process shows the same
// question; "Use this plan" hands the plan to the scheduler, whose item
// runs; a typed reply is the user's answer, not an approval: the plan is
// not taken and the reply reaches the model as the create_todo_list
// result, as "Reject it" does. The reviewer is not
// asked again, and no call is left without its result.
func TestPlanQuestionResumedAfterRestart(t *testing.T) {
	cases := []struct {
		name   string
		how    stopper
		answer string
	}{
		{"use-after-sigkill", stoppers[0], "Use this plan"},
		{"reject-after-reload", stoppers[1], "Reject it"},
		// A typed reply is feedback: the plan is not used.
		{"typed-after-exit", stoppers[2], "Add a test first, then fix"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reviews atomic.Int64
			model := planScript(t, &reviews)
			ws, state := t.TempDir(), t.TempDir()
			settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m", "todolistReview.enabled": true, "todolistReview.maxAttempts": 1}
			ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
			r := send(t, ed, "", "make a plan to fix the bug")
			q := awaitConfirm(t, ed, 1)
			if q.Kind != "question" || q.ToolCallID != "p1" || !strings.Contains(q.Question, "Use this plan anyway?") ||
				len(q.Options) != 2 || q.Review == nil || q.Review.Approved {
				t.Fatalf("plan question %+v", q)
			}
			c.how.stop(t, ed)

			ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
			var load protocol.SessionLoadResult
			if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
				t.Fatal(err)
			}
			if len(load.Pending) != 1 || load.Interrupted {
				t.Fatalf("after the restart: pending %+v interrupted %v\n%s", load.Pending, load.Interrupted, ed2.Stderr())
			}
			p := load.Pending[0]
			if p.ToolCallID != "p1" || p.Question != q.Question || p.TurnID != r.TurnID || len(p.Options) != 2 || p.Review == nil {
				t.Fatalf("restored question %+v\nwant %+v", p, q)
			}
			if got := awaitConfirm(t, ed2, 1); got.ID != p.ID {
				t.Fatalf("confirm/requested announced %s, session/load %s", got.ID, p.ID)
			}
			resolve(t, ed2, protocol.ConfirmResolveParams{ID: p.ID, Decision: "accept", Answer: c.answer})
			if fin := ed2.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed2.Stderr())
			}
			if n := reviews.Load(); n != 1 {
				t.Fatalf("the plan was reviewed %d times; the answer after the restart must decide", n)
			}
			settled := expectSettled(t, ed2, r.SessionID)
			var result string
			for _, req := range model.Requests() {
				if got := lastToolOf(&req, "p1"); got != "" {
					result = got
				}
			}
			switch c.answer {
			case "Use this plan":
				if strings.HasPrefix(result, "Error:") || settled.Todo == nil || len(settled.Todo.Items) != 1 || settled.Todo.Items[0].Status != "done" {
					t.Fatalf("the accepted plan did not run: p1 result %q, todo %+v", result, settled.Todo)
				}
			case "Reject it":
				if !strings.Contains(result, "The user rejected the plan.") || settled.Todo != nil && len(settled.Todo.Items) > 0 {
					t.Fatalf("rejected plan: p1 result %q, todo %+v", result, settled.Todo)
				}
			default:
				if !strings.Contains(result, "The user did not accept the plan as it is and replied: "+c.answer) ||
					settled.Todo != nil && len(settled.Todo.Items) > 0 {
					t.Fatalf("a typed reply must reach the model without accepting: p1 result %q, todo %+v", result, settled.Todo)
				}
			}
			expectValid(t, model)
		})
	}
}
