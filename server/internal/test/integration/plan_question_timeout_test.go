package integration

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// planTimeoutText is what the model is told when nobody answers the plan
// question (askHuman.timeoutMs bounds it, as it bounds ask_human).
const planTimeoutText = "The plan was not accepted: nobody answered the question whether to use it within "

// TestPlanQuestionTimesOut: the plan reviewer gives up, the user is asked
// whether to use the plan, and nobody answers within askHuman.timeoutMs:
// the question is withdrawn, the plan is not used, the model is told and
// the turn finishes with every call answered.
func TestPlanQuestionTimesOut(t *testing.T) {
	var reviews atomic.Int64
	model := planScript(t, &reviews)
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "todolistReview.enabled": true, "todolistReview.maxAttempts": 1,
			"askHuman.timeoutMs": 1500}})
	r := send(t, ed, "", "make a plan to fix the bug")
	q := awaitConfirm(t, ed, 1)
	if q.Kind != "question" || q.ToolCallID != "p1" {
		t.Fatalf("asked %+v", q)
	}
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	awaitClosed(t, ed, q.ID, "cancelled")
	if got := toolResultFor(t, model, "p1"); !strings.Contains(got, planTimeoutText+"1.5s") {
		t.Fatalf("the model got %q", got)
	}
	settled := expectSettled(t, ed, r.SessionID)
	if settled.Todo != nil && len(settled.Todo.Items) > 0 {
		t.Fatalf("a plan nobody accepted was used: %+v", settled.Todo)
	}
	expectValid(t, model)
}

// TestPlanQuestionTimeoutSurvivesRestart: the sidecar is killed while the
// plan question waits; the next process shows it again and still lets it
// time out (counted from when it was first asked), and the resumed run
// tells the model; the reviewer is not asked again.
func TestPlanQuestionTimeoutSurvivesRestart(t *testing.T) {
	var reviews atomic.Int64
	model := planScript(t, &reviews)
	ws, state := t.TempDir(), t.TempDir()
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m", "todolistReview.enabled": true, "todolistReview.maxAttempts": 1}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	r := send(t, ed, "", "make a plan to fix the bug")
	awaitConfirm(t, ed, 1)
	stoppers[0].stop(t, ed)

	settings["askHuman.timeoutMs"] = 6000
	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	var load protocol.SessionLoadResult
	if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	if len(load.Pending) != 1 || load.Pending[0].ToolCallID != "p1" {
		t.Fatalf("after the restart: pending %+v\n%s", load.Pending, ed2.Stderr())
	}
	if fin := ed2.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed2.Stderr())
	}
	awaitClosed(t, ed2, load.Pending[0].ID, "cancelled")
	if got := toolResultFor(t, model, "p1"); !strings.Contains(got, planTimeoutText+"6s") {
		t.Fatalf("the model got %q", got)
	}
	if n := reviews.Load(); n != 1 {
		t.Fatalf("the plan was reviewed %d times", n)
	}
	expectSettled(t, ed2, r.SessionID)
	expectValid(t, model)
}
