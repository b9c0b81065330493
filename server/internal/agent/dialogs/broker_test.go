package dialogs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// memStore records confirmations as *store.Store does (the two writes the
// Broker makes).
type memStore struct {
	mu   sync.Mutex
	n    int
	recs map[string]*store.Confirmation
	fail error
}

func newMemStore() *memStore { return &memStore{recs: map[string]*store.Confirmation{}} }

func (m *memStore) CreateConfirmation(_ context.Context, sid string, nc store.NewConfirmation) (store.Confirmation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return store.Confirmation{}, m.fail
	}
	m.n++
	c := store.Confirmation{ID: fmt.Sprintf("c%d", m.n), SessionID: sid, Kind: nc.Kind, ToolCallID: nc.ToolCallID, Payload: nc.Payload,
		Status: store.ConfirmPending}
	m.recs[c.ID] = &c
	return c, nil
}

func (m *memStore) ResolveConfirmation(_ context.Context, id string, st store.ConfirmationStatus, resp json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.recs[id]
	if c == nil {
		return errors.New("no such confirmation")
	}
	c.Status, c.Response = st, resp
	return nil
}

func (m *memStore) get(id string) store.Confirmation {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.recs[id]; c != nil {
		return *c
	}
	return store.Confirmation{}
}

// client is the Broker's client side: what it was shown and told closed.
type client struct {
	requested chan approval.Confirm
	closed    chan [2]string // id, reason
}

func newBroker(t *testing.T, st Store, stopping error) (*Broker, client) {
	t.Helper()
	c := client{requested: make(chan approval.Confirm, 16), closed: make(chan [2]string, 16)}
	b := NewBroker(st, Options{OnRequested: func(x approval.Confirm) { c.requested <- x },
		OnClosed: func(id, reason string) { c.closed <- [2]string{id, reason} }, Stopping: stopping})
	return b, c
}

type asked struct {
	a   approval.Answer
	err error
}

// ask runs b.Ask on its own goroutine, as a tool does, and returns the
// question as shown and where its answer arrives.
func ask(t *testing.T, ctx context.Context, b *Broker, cl client, c approval.Confirm) (approval.Confirm, chan asked) {
	t.Helper()
	out := make(chan asked, 1)
	go func() {
		a, err := b.Ask(ctx, c)
		out <- asked{a, err}
	}()
	return <-cl.requested, out
}

func wantClosed(t *testing.T, cl client, id, reason string) {
	t.Helper()
	select {
	case got := <-cl.closed:
		if got != [2]string{id, reason} {
			t.Fatalf("closed %v, want %s %s", got, id, reason)
		}
	default:
		t.Fatalf("%s was not closed (%s)", id, reason)
	}
}

func wantNoClose(t *testing.T, cl client) {
	t.Helper()
	select {
	case got := <-cl.closed:
		t.Fatalf("unexpected close %v", got)
	default:
	}
}

// A confirmation is recorded before it is shown, listed while it waits,
// and its answer is recorded and delivered to the waiting tool.
func TestAskRecordsShowsAndDeliversTheAnswer(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	c, out := ask(t, context.Background(), b, cl, approval.Confirm{SessionID: "s1", TurnID: "t1", ToolCallID: "call1", Kind: "shell", Command: "ls"})
	if rec := st.get(c.ID); rec.Status != store.ConfirmPending || rec.Kind != "shell" || rec.ToolCallID != "call1" {
		t.Fatalf("recorded %+v", rec)
	}
	if p := b.Pending("s1"); len(p) != 1 || p[0].ID != c.ID {
		t.Fatalf("pending %+v", p)
	}
	if p := b.Pending("s2"); len(p) != 0 {
		t.Fatalf("another session's pending %+v", p)
	}
	if err := b.Resolve(c.ID, approval.Answer{Accept: true, Reason: "fine"}); err != nil {
		t.Fatal(err)
	}
	if r := <-out; r.err != nil || !r.a.Accept || r.a.Reason != "fine" {
		t.Fatalf("the tool got %+v", r)
	}
	wantClosed(t, cl, c.ID, "resolved")
	if rec := st.get(c.ID); rec.Status != store.ConfirmApproved || string(rec.Response) == "" {
		t.Fatalf("recorded %+v", rec)
	}
	if len(b.Pending("")) != 0 {
		t.Fatal("still pending after its answer")
	}
	if err := b.Resolve(c.ID, approval.Answer{Accept: true}); !errors.Is(err, ErrNoSuchConfirm) {
		t.Fatalf("a second answer: %v", err)
	}
}

// A rejection is recorded as rejected; the pending list keeps the order
// the questions were asked in.
func TestResolveRejectsInOrder(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	c1, out1 := ask(t, context.Background(), b, cl, approval.Confirm{SessionID: "s", Kind: "edit"})
	c2, out2 := ask(t, context.Background(), b, cl, approval.Confirm{SessionID: "s", Kind: "shell"})
	if p := b.Pending("s"); len(p) != 2 || p[0].ID != c1.ID || p[1].ID != c2.ID {
		t.Fatalf("pending %+v", p)
	}
	must(t, b.Resolve(c2.ID, approval.Answer{Reason: "no"}))
	must(t, b.Resolve(c1.ID, approval.Answer{Accept: true}))
	if r := <-out2; r.a.Accept || r.a.Reason != "no" {
		t.Fatalf("second got %+v", r)
	}
	<-out1
	if st.get(c2.ID).Status != store.ConfirmRejected || st.get(c1.ID).Status != store.ConfirmApproved {
		t.Fatalf("recorded %v %v", st.get(c1.ID).Status, st.get(c2.ID).Status)
	}
}

// A call that ends while its confirmation waits (Stop, a timeout)
// withdraws it: recorded as cancelled, shown as withdrawn.
func TestAskCancelledWithdrawsTheConfirmation(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, errors.New("stopping"))
	ctx, cancel := context.WithCancel(context.Background())
	c, out := ask(t, ctx, b, cl, approval.Confirm{SessionID: "s", Kind: "edit"})
	cancel()
	if r := <-out; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("got %+v", r)
	}
	wantClosed(t, cl, c.ID, "cancelled")
	if st.get(c.ID).Status != store.ConfirmCancelled || len(b.Pending("s")) != 0 {
		t.Fatalf("recorded %v, pending %v", st.get(c.ID).Status, b.Pending("s"))
	}
}

// A stopping process leaves its questions pending on disk (the next one
// asks them again) and suspends the run instead of cancelling it.
func TestAskWhileStoppingStaysPendingOnDisk(t *testing.T) {
	st := newMemStore()
	stopping := errors.New("the server stopped")
	b, cl := newBroker(t, st, stopping)
	ctx, cancel := context.WithCancelCause(context.Background())
	c, out := ask(t, ctx, b, cl, approval.Confirm{SessionID: "s", Kind: "question", Question: "q"})
	cancel(stopping)
	r := <-out
	if !errors.Is(r.err, agent.ErrSuspended) || !errors.Is(r.err, stopping) {
		t.Fatalf("got %+v", r)
	}
	wantNoClose(t, cl)
	if st.get(c.ID).Status != store.ConfirmPending {
		t.Fatalf("recorded %v", st.get(c.ID).Status)
	}
}

// A confirmation that cannot be recorded is not shown.
func TestAskFailsWhenNotRecorded(t *testing.T) {
	st := newMemStore()
	st.fail = errors.New("disk full")
	b, cl := newBroker(t, st, nil)
	if _, err := b.Ask(context.Background(), approval.Confirm{SessionID: "s", Kind: "edit"}); err == nil || !errors.Is(err, st.fail) {
		t.Fatalf("got %v", err)
	}
	select {
	case c := <-cl.requested:
		t.Fatalf("shown %+v", c)
	default:
	}
}

// A question restored after a restart has no waiting goroutine: its
// answer goes to the callback, and so does its expiry; whichever comes
// first wins.
func TestRestoredQuestionAnswerAndExpiry(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	rec, _ := st.CreateConfirmation(context.Background(), "s", store.NewConfirmation{Kind: "question"})
	got := make(chan approval.Answer, 2)
	b.Restore(approval.Confirm{ID: rec.ID, SessionID: "s", Kind: "question"}, func(a approval.Answer) { got <- a })
	if c := <-cl.requested; c.ID != rec.ID {
		t.Fatalf("shown %+v", c)
	}
	if !b.Expire(rec.ID, approval.Answer{Reason: approval.ReasonTimedOut}) {
		t.Fatal("the restored question did not expire")
	}
	if a := <-got; a.Reason != approval.ReasonTimedOut {
		t.Fatalf("callback got %+v", a)
	}
	wantClosed(t, cl, rec.ID, "cancelled")
	if st.get(rec.ID).Status != store.ConfirmCancelled {
		t.Fatalf("recorded %v", st.get(rec.ID).Status)
	}
	if b.Expire(rec.ID, approval.Answer{}) || b.Withdraw(rec.ID) {
		t.Fatal("closed twice")
	}
	if err := b.Resolve(rec.ID, approval.Answer{Accept: true}); !errors.Is(err, ErrNoSuchConfirm) {
		t.Fatalf("an answer after the expiry: %v", err)
	}
}

// Only a restored question expires: one a tool waits on ends with its
// call's own timeout.
func TestExpireLeavesAWaitingQuestion(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, out := ask(t, ctx, b, cl, approval.Confirm{SessionID: "s", Kind: "question"})
	if b.Expire(c.ID, approval.Answer{}) {
		t.Fatal("expired a question a tool waits on")
	}
	if !b.Withdraw(c.ID) {
		t.Fatal("not withdrawn")
	}
	wantClosed(t, cl, c.ID, "cancelled")
	if b.Withdraw(c.ID) {
		t.Fatal("withdrawn twice")
	}
	// The tool still waits for its context: withdrawing answers nothing.
	select {
	case r := <-out:
		t.Fatalf("the tool got %+v", r)
	default:
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
