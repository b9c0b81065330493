package dialogs

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// askQuestion asks a question of turn t1 in session s as ask_human does:
// in the turn's open dialog, if there is one.
func askQuestion(t *testing.T, b *Broker, cl client, text string) (approval.Confirm, chan asked) {
	t.Helper()
	c := approval.Confirm{SessionID: "s", TurnID: "t1", Kind: "question", Question: text}
	b.continueDialog(&c)
	return ask(t, context.Background(), b, cl, c)
}

// A reply keeps the question's dialog open, waiting for the agent; its
// next question of the turn is asked in it with the earlier exchange as
// thread, and the end of the turn closes it.
func TestReplyKeepsTheDialogForTheFollowUp(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	q1, out := askQuestion(t, b, cl, "Which database?")
	if q1.DialogID == "" {
		t.Fatal("no dialog")
	}
	must(t, b.Resolve(q1.ID, approval.Answer{Accept: true, Answer: "  sqlite "}))
	wantClosed(t, cl, q1.ID, closedReplied)
	<-out
	if d := b.Dialogs("s"); len(d) != 1 || d[0].Question.ID != q1.ID || d[0].Reply != "sqlite" {
		t.Fatalf("open dialogs %+v", d)
	}
	if d := b.Dialogs("other"); len(d) != 0 {
		t.Fatalf("another session's dialogs %+v", d)
	}
	q2, out := askQuestion(t, b, cl, "Which version?")
	if q2.DialogID != q1.DialogID || len(q2.Thread) != 1 || q2.Thread[0] != (approval.QuestionExchange{Question: "Which database?", Reply: "sqlite"}) {
		t.Fatalf("follow-up %+v", q2)
	}
	if d := b.Dialogs("s"); len(d) != 0 {
		t.Fatalf("the follow-up took its dialog, yet %+v", d)
	}
	must(t, b.Resolve(q2.ID, approval.Answer{Accept: true, Answer: "3.45"}))
	wantClosed(t, cl, q2.ID, closedReplied)
	<-out
	b.EndDialogs("s", "t1")
	wantClosed(t, cl, q2.ID, closedEnded)
	if d := b.Dialogs("s"); len(d) != 0 {
		t.Fatalf("the ended turn left %+v", d)
	}
	// A new question of another turn opens a new dialog.
	c := approval.Confirm{SessionID: "s", TurnID: "t2", Kind: "question"}
	b.continueDialog(&c)
	if c.DialogID == "" || c.DialogID == q1.DialogID || len(c.Thread) != 0 {
		t.Fatalf("next turn's question %+v", c)
	}
}

// Done and Cancel close the dialog with the answer.
func TestDoneAndCancelCloseTheDialog(t *testing.T) {
	for _, a := range []approval.Answer{{Accept: true, Answer: "ok", Reason: approval.ReasonDone}, {}} {
		b, cl := newBroker(t, newMemStore(), nil)
		q, out := askQuestion(t, b, cl, "q")
		must(t, b.Resolve(q.ID, a))
		wantClosed(t, cl, q.ID, "resolved")
		<-out
		if d := b.Dialogs("s"); len(d) != 0 {
			t.Fatalf("%+v left %+v", a, d)
		}
	}
}

// The user's Close of a dialog waiting for the agent closes it, and the
// model is told once, with the turn's next tool result.
func TestCloseWhileWaitingTellsTheModelOnce(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	q, out := askQuestion(t, b, cl, "q")
	must(t, b.Resolve(q.ID, approval.Answer{Accept: true, Answer: "a"}))
	wantClosed(t, cl, q.ID, closedReplied)
	<-out
	if note := b.ClosedNote("s", "t1"); note != "" {
		t.Fatalf("note before any Close: %q", note)
	}
	must(t, b.Resolve(q.ID, approval.Answer{})) // the card's Close
	wantClosed(t, cl, q.ID, "resolved")
	if d := b.Dialogs("s"); len(d) != 0 {
		t.Fatalf("still open %+v", d)
	}
	if note := b.ClosedNote("s", "t1"); note != tools.DialogClosedNote {
		t.Fatalf("note %q", note)
	}
	if note := b.ClosedNote("s", "t1"); note != "" {
		t.Fatalf("told twice: %q", note)
	}
	// The agent's next question opens a new dialog.
	c := approval.Confirm{SessionID: "s", TurnID: "t1", Kind: "question"}
	b.continueDialog(&c)
	if c.DialogID == q.DialogID || len(c.Thread) != 0 {
		t.Fatalf("asked in the closed dialog: %+v", c)
	}
}

// A Close that crosses the agent's follow-up on the wire closes that
// follow-up unanswered, and its tool is told the user closed the dialog.
func TestCloseCrossingTheFollowUpClosesIt(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	q1, out := askQuestion(t, b, cl, "first")
	must(t, b.Resolve(q1.ID, approval.Answer{Accept: true, Answer: "a"}))
	wantClosed(t, cl, q1.ID, closedReplied)
	<-out
	q2, out := askQuestion(t, b, cl, "second")
	must(t, b.Resolve(q1.ID, approval.Answer{})) // sent before the client saw q2
	r := <-out
	if r.err != nil || r.a.Reason != approval.ReasonClosed || !replyOf(r.a).Closed {
		t.Fatalf("the follow-up got %+v", r)
	}
	wantClosed(t, cl, q1.ID, "resolved")
	wantClosed(t, cl, q2.ID, "resolved")
	if len(b.Pending("s")) != 0 || len(b.Dialogs("s")) != 0 {
		t.Fatalf("left %+v %+v", b.Pending("s"), b.Dialogs("s"))
	}
	if st.get(q2.ID).Status != "rejected" {
		t.Fatalf("recorded %v", st.get(q2.ID).Status)
	}
}

// The end of a turn forgets its closed-dialog note and the replied
// questions whose dialog its follow-up took.
func TestEndDialogsForgetsTheTurn(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	q1, out := askQuestion(t, b, cl, "first")
	must(t, b.Resolve(q1.ID, approval.Answer{Accept: true, Answer: "a"}))
	<-out
	q2, out := askQuestion(t, b, cl, "second")
	must(t, b.Resolve(q2.ID, approval.Answer{Accept: true, Answer: "b"}))
	<-out
	must(t, b.Resolve(q2.ID, approval.Answer{})) // closed while waiting
	b.EndDialogs("s", "t1")
	if note := b.ClosedNote("s", "t1"); note != "" {
		t.Fatalf("note outlived the turn: %q", note)
	}
	if err := b.Resolve(q1.ID, approval.Answer{}); err != ErrNoSuchConfirm {
		t.Fatalf("a Close of the replied question after its turn: %v", err)
	}
}
