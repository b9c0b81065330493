package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
	"github.com/govibe/govibe/server/internal/workspace/tools"
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
	replyThenClose(t, ed, q1.ID, "postgres")
	close(gate)
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	if q1 := closeNoteOnce(t, model, "q1", "l1"); q1 != "The user replied: postgres" {
		t.Fatalf("q1 result %q", q1)
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

// replyThenClose answers question id in its dialog, then presses the
// dialog's Close, waiting for each to be taken.
func replyThenClose(t *testing.T, ed *fakeeditor.Editor, id, answer string) {
	t.Helper()
	resolve(t, ed, protocol.ConfirmResolveParams{ID: id, Decision: "accept", Answer: answer})
	awaitClosed(t, ed, id, "replied")
	// Close, as the dialog's button sends it.
	resolve(t, ed, protocol.ConfirmResolveParams{ID: id, Decision: "accept", Reason: "done"})
	awaitClosed(t, ed, id, "resolved")
}

// closeNoteOnce checks that the dialog-closed note reached the model
// exactly once, at the end of one of ids' results (the question's and the
// next tool's) in the model's last request: the question's own when the
// Close overtook its reply on the way to the agent loop, else the next
// one. It returns the first result without the note.
func closeNoteOnce(t *testing.T, model *scripted.Server, ids ...string) string {
	t.Helper()
	return noteOnce(t, "the model", ids, func(id string) string { return toolResultFor(t, model, id) })
}

// noteOnce is closeNoteOnce over any agent's results: resultOf gives the
// result of a call id as that agent last saw it.
func noteOnce(t *testing.T, who string, ids []string, resultOf func(id string) string) string {
	t.Helper()
	suffix := "\n\n" + tools.DialogClosedNote
	var with []string
	first := ""
	for i, id := range ids {
		got := resultOf(id)
		if strings.Contains(got, tools.DialogClosedNote) {
			if !strings.HasSuffix(got, suffix) {
				t.Fatalf("%s: the note is not at the end: %q", id, got)
			}
			with = append(with, id)
		}
		if i == 0 {
			first = strings.TrimSuffix(got, suffix)
		}
	}
	if len(with) != 1 {
		t.Fatalf("the close note must reach %s once, with one of %v: it came with %v", who, ids, with)
	}
	return first
}
