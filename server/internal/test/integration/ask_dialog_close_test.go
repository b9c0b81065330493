package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
	"github.com/govibe/govibe/server/internal/tools"
)

// TestAskHumanDialogCloseTellsTheModel: the user replies, the dialog
// waits for the agent, and the user closes it while the agent works. The
// reply stays the question's result; the model reads that the dialog was
// closed with its next tool result (here list_files'), once. After a
// restart the session loads with nothing pending and goes on: no call is
// ever without its result.
func TestAskHumanDialogCloseTellsTheModel(t *testing.T) {
	gate := make(chan struct{})
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		switch {
		case strings.Contains(r.LastUserMessage(), "what next"):
			return scripted.Reply{Text: "Nothing else."}
		case lastToolOf(r, "q1") == "":
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}
		case lastToolOf(r, "l1") == "":
			select {
			case <-gate:
			case <-time.After(20 * time.Second):
			}
			return tc("l1", "list_files", `{}`)
		case lastToolOf(r, "l2") == "":
			return tc("l2", "list_files", `{}`)
		}
		return scripted.Reply{Text: "Postgres it is."}
	})
	ws, state := t.TempDir(), t.TempDir()
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	r := send(t, ed, "", "set up storage")
	q1 := awaitConfirm(t, ed, 1)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Answer: "postgres"})
	awaitClosed(t, ed, q1.ID, "replied")
	// Close, as the dialog's button sends it.
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Reason: "done"})
	awaitClosed(t, ed, q1.ID, "resolved")
	close(gate)
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	if got := toolResultFor(t, model, "q1"); got != "The user replied: postgres" {
		t.Fatalf("q1 result %q", got)
	}
	if got := toolResultFor(t, model, "l1"); !strings.HasSuffix(got, "\n\n"+tools.DialogClosedNote) {
		t.Fatalf("the model was not told of the close: l1 result %q", got)
	}
	if got := toolResultFor(t, model, "l2"); strings.Contains(got, tools.DialogClosedNote) {
		t.Fatalf("the note is given once: l2 result %q", got)
	}
	expectSettled(t, ed, r.SessionID)
	stoppers[0].stop(t, ed)

	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	load := expectSettled(t, ed2, r.SessionID)
	if load.Interrupted {
		t.Fatal("the finished turn loads as interrupted")
	}
	r2 := send(t, ed2, r.SessionID, "what next")
	if fin := ed2.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("the next turn ended %s\n%s", fin.Status, ed2.Stderr())
	}
	expectValid(t, model)
}

// TestAskHumanDialogCloseCrossesAFollowUp: the user closes the dialog
// just as the agent's follow-up is asked in it (the Close names the
// replied question; the follow-up had not reached the screen). The
// follow-up is closed unanswered and the model gets that as its result;
// the turn goes on and nothing stays pending.
func TestAskHumanDialogCloseCrossesAFollowUp(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		switch {
		case lastToolOf(r, "q1") == "":
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}
		case lastToolOf(r, "q2") == "":
			return scripted.Reply{ToolCalls: []scripted.ToolCall{askVersion}}
		}
		return scripted.Reply{Text: "Postgres, latest version."}
	})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "set up storage")
	q1 := awaitConfirm(t, ed, 1)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Answer: "postgres"})
	q2 := awaitConfirm(t, ed, 2)
	if q2.DialogID != q1.DialogID {
		t.Fatalf("the follow-up is not in the dialog: %+v", q2)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: q1.ID, Decision: "accept", Reason: "done"})
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	awaitClosed(t, ed, q2.ID, "resolved")
	if got := toolResultFor(t, model, "q2"); !strings.HasPrefix(got, "The user closed the question dialog without answering this question") {
		t.Fatalf("q2 result %q", got)
	}
	if got := toolResultFor(t, model, "q1"); got != "The user replied: postgres" {
		t.Fatalf("q1 result %q", got)
	}
	expectSettled(t, ed, r.SessionID)
	expectValid(t, model)
}
