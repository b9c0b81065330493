package dialogs

import (
	"encoding/json"
	"slices"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// An ask_human question is asked in a dialog. Send (an answer that is
// neither Done nor Cancel) ends the tool call, so the model gets the reply,
// but not the dialog: it stays open, waiting for the agent, and the
// agent's next question in the same turn is asked in it, with the earlier
// exchanges as its thread. Done, Cancel, a timeout, Stop or the end of the
// turn close it, and so does the user while it waits (confirm/resolve on
// its last question). The client is told with confirm/closed reasons:
//   - "replied": the question got its reply and its dialog stays open;
//   - "ended":   the open dialog of that (already replied) question closed
//     without a follow-up, because its turn ended.
const (
	closedReplied = "replied"
	closedEnded   = "ended"
)

// OpenDialog is a dialog waiting for the agent's follow-up: its last
// question and the user's reply to it.
type OpenDialog struct {
	Question approval.Confirm
	Reply    string
}

// continueDialog puts c in the open dialog of its turn, if there is one
// (taking it: a dialog holds one question at a time), or in a new dialog.
func (b *Broker) continueDialog(c *approval.Confirm) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.dialogs) - 1; i >= 0; i-- {
		d := b.dialogs[i]
		if d.Question.SessionID != c.SessionID || d.Question.TurnID != c.TurnID {
			continue
		}
		b.dialogs = slices.Delete(b.dialogs, i, i+1)
		if b.continued == nil {
			b.continued = map[string]continuedDialog{}
		}
		b.continued[d.Question.ID] = continuedDialog{dialogID: d.Question.DialogID, sessionID: c.SessionID, turnID: c.TurnID}
		c.DialogID = d.Question.DialogID
		c.Thread = append(slices.Clone(d.Question.Thread), approval.QuestionExchange{Question: d.Question.Question, Reply: d.Reply})
		return
	}
	c.DialogID = uuid.NewString()
}

// keepsDialog says whether answering c with a keeps its dialog open.
func keepsDialog(c approval.Confirm, a approval.Answer) bool {
	return c.Kind == "question" && c.DialogID != "" && a.Accept && a.Reason != approval.ReasonDone
}

func (b *Broker) keepDialog(c approval.Confirm, reply string) {
	b.mu.Lock()
	b.dialogs = append(b.dialogs, OpenDialog{Question: c, Reply: reply})
	b.mu.Unlock()
}

// closeDialog ends the open dialog whose last question is id: the user
// closed it while it waited for the agent. The agent's next question, if
// any, opens a new dialog, and the model is told with its next tool result
// (ClosedNote).
func (b *Broker) closeDialog(id string) bool {
	b.mu.Lock()
	var closed []OpenDialog
	b.dialogs = slices.DeleteFunc(b.dialogs, func(d OpenDialog) bool {
		if d.Question.ID == id {
			closed = append(closed, d)
			return true
		}
		return false
	})
	for _, d := range closed {
		if b.closedNotes == nil {
			b.closedNotes = map[[2]string]bool{}
		}
		b.closedNotes[[2]string{d.Question.SessionID, d.Question.TurnID}] = true
	}
	b.mu.Unlock()
	if len(closed) > 0 {
		b.onClosed(id, "resolved")
	}
	return len(closed) > 0
}

// continuedDialog is where a replied question's dialog went: the agent's
// follow-up asked in it.
type continuedDialog struct{ dialogID, sessionID, turnID string }

// closeContinued handles a Close for a replied question whose dialog the
// agent's follow-up already took (the user's click crossed the question on
// the wire): the follow-up is closed unanswered, and the model is told so
// as its result.
func (b *Broker) closeContinued(id string) bool {
	b.mu.Lock()
	cd, ok := b.continued[id]
	delete(b.continued, id)
	var w *waiting
	if ok {
		for _, x := range b.pending {
			if x.c.Kind == "question" && x.c.DialogID == cd.dialogID {
				w = x
				break
			}
		}
	}
	b.mu.Unlock()
	if w == nil || !b.remove(w.c.ID) {
		return false
	}
	a := approval.Answer{Reason: approval.ReasonClosed}
	resp, _ := json.Marshal(a)
	b.persist(w.c.ID, store.ConfirmRejected, resp)
	b.onClosed(id, "resolved")
	b.deliver(w, a)
	b.onClosed(w.c.ID, "resolved")
	return true
}

// ClosedNote returns (once) the note for the model of a turn whose
// question dialog the user closed while the agent worked.
func (b *Broker) ClosedNote(sessionID, turnID string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := [2]string{sessionID, turnID}
	if !b.closedNotes[k] {
		return ""
	}
	delete(b.closedNotes, k)
	return tools.DialogClosedNote
}

// EndDialogs closes the dialogs a turn left open (its run ended, so no
// follow-up can come).
func (b *Broker) EndDialogs(sessionID, turnID string) {
	b.mu.Lock()
	var ended []string
	b.dialogs = slices.DeleteFunc(b.dialogs, func(d OpenDialog) bool {
		if d.Question.SessionID == sessionID && d.Question.TurnID == turnID {
			ended = append(ended, d.Question.ID)
			return true
		}
		return false
	})
	delete(b.closedNotes, [2]string{sessionID, turnID})
	for id, cd := range b.continued {
		if cd.sessionID == sessionID && cd.turnID == turnID {
			delete(b.continued, id)
		}
	}
	b.mu.Unlock()
	for _, id := range ended {
		b.onClosed(id, closedEnded)
	}
}

// Dialogs lists a session's open dialogs (waiting for the agent), so a
// reloaded client shows them again.
func (b *Broker) Dialogs(sessionID string) []OpenDialog {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []OpenDialog
	for _, d := range b.dialogs {
		if d.Question.SessionID == sessionID {
			out = append(out, d)
		}
	}
	return out
}
