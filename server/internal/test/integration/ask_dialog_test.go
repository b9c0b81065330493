package integration

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

var askVersion = scripted.ToolCall{ID: "q2", Name: "ask_human", Arguments: `{"question":"Which version?"}`}

// dialogModel asks q1, then (once released) the follow-up q2, then ends.
// The request after q1's result waits on gate, so the test sees the
// dialog open between the two questions.
func dialogModel(t *testing.T, gate chan struct{}) *scripted.Server {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		switch {
		case lastToolOf(r, "q1") == "":
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}
		case lastToolOf(r, "q2") == "":
			select {
			case <-gate:
			case <-time.After(20 * time.Second):
			}
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askVersion}}
		}
		return scripted.Reply{Text: "Postgres 16 it is."}
	})
	return model
}

// closedReasons is the reason confirm/closed gave for each question id.
func closedReasons(ed *fakeeditor.Editor) map[string][]string {
	out := map[string][]string{}
	for _, n := range ed.Notifications("confirm/closed") {
		var c protocol.ConfirmClosed
		if json.Unmarshal(n.Params, &c) == nil {
			out[c.ID] = append(out[c.ID], c.Reason)
		}
	}
	return out
}

func awaitClosed(t *testing.T, ed *fakeeditor.Editor, id, reason string) {
	t.Helper()
	ed.Await("confirm/closed "+id+" "+reason, 20*time.Second, func(e *fakeeditor.Editor) bool {
		for _, r := range closedReasons(e)[id] {
			if r == reason {
				return true
			}
		}
		return false
	})
}

// TestAskHumanDialogStaysOpen: Send answers the question (the model gets
// the reply) but keeps its dialog open: confirm/closed says "replied",
// session/load lists the dialog while the agent works (a reload shows it),
// and the agent's follow-up is asked in the same dialog with the earlier
// exchange as its thread. The follow-up's answer decides how it ends: a
// Send leaves it open until the turn ends ("ended"); Done and Cancel close
// it at once ("resolved") and nothing else is announced.
func TestAskHumanDialogStaysOpen(t *testing.T) {
	cases := []struct {
		name     string
		followUp protocol.ConfirmResolveParams
		want     string
		reasons  []string
	}{
		{"send-then-turn-ends", protocol.ConfirmResolveParams{Decision: "accept", Answer: "16"}, "The user replied: 16", []string{"replied", "ended"}},
		{"done", protocol.ConfirmResolveParams{Decision: "accept", Answer: "16", Reason: "done"}, "The user replied and is done with this topic: 16", []string{"resolved"}},
		{"cancel", protocol.ConfirmResolveParams{Decision: "reject"}, "The user cancelled the question.", []string{"resolved"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gate := make(chan struct{})
			model := dialogModel(t, gate)
			ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
				Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
			r := send(t, ed, "", "set up storage")
			q1 := awaitConfirm(t, ed, 1)
			if q1.DialogID == "" || len(q1.Thread) != 0 {
				t.Fatalf("first question %+v", q1)
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Answer: " postgres "})
			awaitClosed(t, ed, q1.ID, "replied")

			// The agent is working (its next request waits on the gate):
			// the dialog is open, with nothing to answer.
			var load protocol.SessionLoadResult
			if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
				t.Fatal(err)
			}
			if len(load.Pending) != 0 || len(load.Dialogs) != 1 || load.Dialogs[0].Question.ID != q1.ID ||
				load.Dialogs[0].Question.DialogID != q1.DialogID || load.Dialogs[0].Reply != "postgres" {
				t.Fatalf("while the agent works: pending %+v dialogs %+v", load.Pending, load.Dialogs)
			}
			close(gate)

			q2 := awaitConfirm(t, ed, 2)
			if q2.DialogID != q1.DialogID || q2.Question != "Which version?" ||
				len(q2.Thread) != 1 || q2.Thread[0] != (protocol.QuestionExchange{Question: "Which database?", Reply: "postgres"}) {
				t.Fatalf("the follow-up is not in the dialog: %+v (first %+v)", q2, q1)
			}
			if got := toolResultFor(t, model, "q1"); got != "The user replied: postgres" {
				t.Fatalf("q1 result %q", got)
			}
			c.followUp.ID = q2.ID
			resolve(t, ed, c.followUp)
			if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
				t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if got := toolResultFor(t, model, "q2"); got != c.want {
				t.Fatalf("q2 result %q, want %q", got, c.want)
			}
			if len(c.reasons) == 2 {
				awaitClosed(t, ed, q2.ID, "ended")
			}
			got := closedReasons(ed)
			if strings.Join(got[q1.ID], ",") != "replied" || strings.Join(got[q2.ID], ",") != strings.Join(c.reasons, ",") {
				t.Fatalf("confirm/closed reasons: q1 %v, q2 %v (want %v)", got[q1.ID], got[q2.ID], c.reasons)
			}
			expectValid(t, model)
			expectSettled(t, ed, r.SessionID)
		})
	}
}

// TestAskHumanDialogEndsWithStop: Stop while the dialog waits for the
// agent closes it ("ended"), and a new turn's question opens a new dialog.
func TestAskHumanDialogEndsWithStop(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	model := dialogModel(t, gate)
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "set up storage")
	q1 := awaitConfirm(t, ed, 1)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Answer: "postgres"})
	awaitClosed(t, ed, q1.ID, "replied")
	if err := ed.Call("chat/cancel", protocol.ChatCancelParams{SessionID: r.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	awaitClosed(t, ed, q1.ID, "ended")
	expectSettled(t, ed, r.SessionID)
}

// TestAskHumanDialogClosedWhileWaiting: the user closes the open dialog
// while the agent works (confirm/resolve on its replied question): it is
// gone from session/load, the agent's next question opens a new one, and
// the model reads of the close with its next tool result.
func TestAskHumanDialogClosedWhileWaiting(t *testing.T) {
	gate := make(chan struct{})
	model := dialogModel(t, gate)
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "set up storage")
	q1 := awaitConfirm(t, ed, 1)
	replyThenClose(t, ed, q1.ID, "postgres")
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	if len(load.Dialogs) != 0 {
		t.Fatalf("a closed dialog is still listed: %+v", load.Dialogs)
	}
	// Closing it twice is an error: nothing is open any more.
	if err := ed.Call("confirm/resolve", protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Reason: "done"}, nil); err == nil {
		t.Fatal("a second close succeeded")
	}
	close(gate)
	q2 := awaitConfirm(t, ed, 2)
	if q2.DialogID == "" || q2.DialogID == q1.DialogID || len(q2.Thread) != 0 {
		t.Fatalf("the follow-up after a close must open a new dialog: %+v (first %+v)", q2, q1)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q2.ID, Decision: "reject"})
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	// The close reaches the model once: with q1's reply when the two met
	// on the way to the agent loop, else with the next result, q2's.
	closeNoteOnce(t, model, "q1", "q2")
	if got := strings.TrimSuffix(toolResultFor(t, model, "q2"), "\n\n"+tools.DialogClosedNote); got != "The user cancelled the question." {
		t.Fatalf("q2 result %q", got)
	}
	expectValid(t, model)
	expectSettled(t, ed, r.SessionID)
}
