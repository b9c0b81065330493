package engine

import (
	"slices"

	"github.com/google/uuid"
	"github.com/govibe/govibe/server/internal/approval"
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

// QuestionExchange is one answered question of a dialog.
type QuestionExchange = approval.QuestionExchange

// OpenDialog is a dialog waiting for the agent's follow-up: its last
// question and the user's reply to it.
type OpenDialog struct {
	Question Confirm
	Reply    string
}

// continueDialog puts c in the open dialog of its turn, if there is one
// (taking it: a dialog holds one question at a time), or in a new dialog.
func (b *Broker) continueDialog(c *Confirm) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.dialogs) - 1; i >= 0; i-- {
		d := b.dialogs[i]
		if d.Question.SessionID != c.SessionID || d.Question.TurnID != c.TurnID {
			continue
		}
		b.dialogs = slices.Delete(b.dialogs, i, i+1)
		c.DialogID = d.Question.DialogID
		c.Thread = append(slices.Clone(d.Question.Thread), QuestionExchange{Question: d.Question.Question, Reply: d.Reply})
		return
	}
	c.DialogID = uuid.NewString()
}

// keepsDialog says whether answering c with a keeps its dialog open.
func keepsDialog(c Confirm, a Answer) bool {
	return c.Kind == "question" && c.DialogID != "" && a.Accept && a.Reason != ReasonDone
}

func (b *Broker) keepDialog(c Confirm, reply string) {
	b.mu.Lock()
	b.dialogs = append(b.dialogs, OpenDialog{Question: c, Reply: reply})
	b.mu.Unlock()
}

// closeDialog ends the open dialog whose last question is id: the user
// closed it (Done or Cancel) while it waited for the agent. The agent's
// next question, if any, opens a new dialog.
func (b *Broker) closeDialog(id string) bool {
	b.mu.Lock()
	n := len(b.dialogs)
	b.dialogs = slices.DeleteFunc(b.dialogs, func(d OpenDialog) bool { return d.Question.ID == id })
	found := len(b.dialogs) < n
	b.mu.Unlock()
	if found {
		b.onClosed(id, "resolved")
	}
	return found
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
