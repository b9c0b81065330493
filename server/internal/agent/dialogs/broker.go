package dialogs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// ErrNoSuchConfirm is returned when resolving something no longer pending.
var ErrNoSuchConfirm = errors.New("no such pending confirmation (it was already answered, or its turn ended)")

// Store is where the Broker records each confirmation and its answer, so
// a pending one survives a window reload and a restart (*store.Store).
type Store interface {
	CreateConfirmation(ctx context.Context, sessionID string, nc store.NewConfirmation) (store.Confirmation, error)
	ResolveConfirmation(ctx context.Context, id string, st store.ConfirmationStatus, response json.RawMessage) error
}

// Options are the Broker's collaborators besides its store.
type Options struct {
	// OnRequested shows a confirmation and OnClosed tells the client one
	// closed (with a confirm/closed reason); they must not block.
	OnRequested func(approval.Confirm)
	OnClosed    func(id, reason string)
	// Stopping is the cancellation cause of a process that stops (not the
	// user's Stop): a question cancelled with it stays pending on disk and
	// Ask returns agent.ErrSuspended, so the next process asks it again.
	Stopping error
}

// Broker parks tools on user decisions. A waiting tool blocks only its own
// goroutine; answers arrive through Resolve from the ordered handler, so
// the connection's read loop never waits. Safe for concurrent use.
type Broker struct {
	store Store // nil keeps nothing on disk
	// onRequested and onClosed tell the client; they must not block.
	onRequested func(approval.Confirm)
	onClosed    func(id, reason string)
	stopping    error

	mu      sync.Mutex
	pending map[string]*waiting
	order   []string // ids in the order they were asked
	dialogs []OpenDialog
	// continued maps a replied question whose dialog the agent's
	// follow-up took to that dialog, so a Close the user sent for it
	// (not yet knowing of the follow-up) closes the follow-up instead.
	continued map[string]continuedDialog
	// closedNotes marks turns (session, turn) whose dialog the user
	// closed while the agent worked: the model is told with its next
	// tool result (ClosedNote).
	closedNotes map[[2]string]bool
}

type waiting struct {
	c  approval.Confirm
	ch chan approval.Answer
	// onAnswer, when set, receives the answer instead of ch: a question
	// restored after a restart has no goroutine waiting on it.
	onAnswer func(approval.Answer)
}

// NewBroker returns a Broker recording its confirmations in st (nil: none
// is recorded). Missing callbacks do nothing.
func NewBroker(st Store, o Options) *Broker {
	if o.OnRequested == nil {
		o.OnRequested = func(approval.Confirm) {}
	}
	if o.OnClosed == nil {
		o.OnClosed = func(string, string) {}
	}
	return &Broker{store: st, onRequested: o.OnRequested, onClosed: o.OnClosed, stopping: o.Stopping, pending: map[string]*waiting{}}
}

// Ask persists c (so it survives a window reload), shows it, and waits for
// the answer or ctx's end.
func (b *Broker) Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error) {
	if c.ID == "" {
		c.ID = uuid.NewString()
	}
	payload, _ := json.Marshal(c)
	if b.store != nil {
		rec, err := b.store.CreateConfirmation(ctx, c.SessionID, store.NewConfirmation{Kind: c.Kind, ToolCallID: c.ToolCallID, Payload: payload})
		if err != nil {
			return approval.Answer{}, fmt.Errorf("recording the confirmation: %w", err)
		}
		c.ID = rec.ID
	}
	w := &waiting{c: c, ch: make(chan approval.Answer, 1)}
	b.mu.Lock()
	b.pending[c.ID] = w
	b.order = append(b.order, c.ID)
	b.mu.Unlock()
	b.onRequested(c)
	select {
	case a := <-w.ch:
		return a, nil
	case <-ctx.Done():
		if b.remove(c.ID) {
			if b.stopping != nil && errors.Is(context.Cause(ctx), b.stopping) {
				// The question stays pending on disk: the next process
				// asks it again and resumes the run with the answer.
				return approval.Answer{}, fmt.Errorf("%w: %w", agent.ErrSuspended, context.Cause(ctx))
			}
			b.persist(c.ID, store.ConfirmCancelled, nil)
			b.onClosed(c.ID, "cancelled")
		} else {
			// Resolve won the race: honour the answer it sent.
			select {
			case a := <-w.ch:
				return a, nil
			default:
			}
		}
		return approval.Answer{}, ctx.Err()
	}
}

// Resolve delivers an answer.
func (b *Broker) Resolve(id string, a approval.Answer) error {
	b.mu.Lock()
	w := b.pending[id]
	b.mu.Unlock()
	if w == nil || !b.remove(id) {
		if b.closeDialog(id) || b.closeContinued(id) {
			return nil
		}
		return ErrNoSuchConfirm
	}
	resp, _ := json.Marshal(a)
	st := store.ConfirmRejected
	if a.Accept {
		st = store.ConfirmApproved
	}
	b.persist(id, st, resp)
	if keepsDialog(w.c, a) {
		// Kept and announced before the answer is delivered, so the
		// agent's follow-up finds the dialog and the client hears of the
		// reply before the follow-up question.
		b.keepDialog(w.c, strings.TrimSpace(a.Answer))
		b.onClosed(id, closedReplied)
		b.deliver(w, a)
		return nil
	}
	b.deliver(w, a)
	b.onClosed(id, "resolved")
	return nil
}

func (b *Broker) deliver(w *waiting, a approval.Answer) {
	if w.onAnswer != nil {
		w.onAnswer(a)
	} else {
		w.ch <- a
	}
}

// Restore re-registers a question a previous process persisted and left
// unanswered, and shows it again. No goroutine waits on it: Resolve hands
// the answer to onAnswer, which must not block.
func (b *Broker) Restore(c approval.Confirm, onAnswer func(approval.Answer)) {
	b.mu.Lock()
	b.pending[c.ID] = &waiting{c: c, ch: make(chan approval.Answer, 1), onAnswer: onAnswer}
	b.order = append(b.order, c.ID)
	b.mu.Unlock()
	b.onRequested(c)
}

// Expire closes a restored question whose time ran out (recorded as
// cancelled, shown as withdrawn) and hands a to its onAnswer, so the
// resumed run tells the model. False when it is no longer pending.
func (b *Broker) Expire(id string, a approval.Answer) bool {
	b.mu.Lock()
	w := b.pending[id]
	b.mu.Unlock()
	if w == nil || w.onAnswer == nil || !b.remove(id) {
		return false
	}
	b.persist(id, store.ConfirmCancelled, nil)
	b.onClosed(id, "cancelled")
	w.onAnswer(a)
	return true
}

// Withdraw closes a pending question without an answer (recorded as
// cancelled). It reports false when the question is no longer pending,
// e.g. because Resolve took it first.
func (b *Broker) Withdraw(id string) bool {
	if !b.remove(id) {
		return false
	}
	b.persist(id, store.ConfirmCancelled, nil)
	b.onClosed(id, "cancelled")
	return true
}

func (b *Broker) remove(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.pending[id]; !ok {
		return false
	}
	delete(b.pending, id)
	for i, x := range b.order {
		if x == id {
			b.order = append(b.order[:i:i], b.order[i+1:]...)
			break
		}
	}
	return true
}

func (b *Broker) persist(id string, st store.ConfirmationStatus, resp json.RawMessage) {
	if b.store == nil {
		return
	}
	_ = b.store.ResolveConfirmation(context.Background(), id, st, resp)
}

// Pending lists a session's open confirmations in the order asked.
func (b *Broker) Pending(sessionID string) []approval.Confirm {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []approval.Confirm
	for _, id := range b.order {
		if w := b.pending[id]; w != nil && (sessionID == "" || w.c.SessionID == sessionID) {
			out = append(out, w.c)
		}
	}
	return out
}
