package usage

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// fixedClient answers every request with the same usage, or fails.
type fixedClient struct {
	u   llm.Usage
	err error
}

func (c fixedClient) Stream(context.Context, llm.Request, func(llm.Event)) (*llm.Response, error) {
	if c.err != nil {
		return nil, c.err
	}
	return &llm.Response{Usage: c.u}, nil
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Requests made concurrently for a hidden child session all count, in
// the child and in its root, priced by the profile that made them; a
// failed request and one without a session count nowhere.
func TestMeteredClientCountsChildAndRoot(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	root, _ := st.CreateSession(ctx, store.NewSession{Title: "root", Kind: store.KindChat})
	child, _ := st.CreateSession(ctx, store.NewSession{ParentID: root.ID, Kind: store.KindReviewer, Hidden: true})
	m := New(st, nil)
	p := llm.Profile{PriceInput: 2, PriceOutput: 8}
	c := m.Client(fixedClient{u: llm.Usage{PromptTokens: 1000, CompletionTokens: 100}}, p)
	if m.Client(c, p) != c {
		t.Fatal("a metered client was wrapped twice")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Stream(ctx, llm.Request{SessionID: child.ID}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	_, _ = c.Stream(ctx, llm.Request{}, nil)
	_, _ = m.Client(fixedClient{err: errors.New("down")}, p).Stream(ctx, llm.Request{SessionID: child.ID}, nil)
	want := 8 * (1000*2 + 100*8) / 1e6
	for _, sid := range []string{child.ID, root.ID} {
		u := m.Of(ctx, sid)
		if u.Requests != 8 || u.PromptTokens != 8000 || u.CompletionTokens != 800 || math.Abs(u.Cost-want) > 1e-12 {
			t.Fatalf("%s: %+v", sid, u)
		}
	}
	if m.Root(child.ID) != root.ID || m.Root(root.ID) != root.ID {
		t.Fatal("root session")
	}
	if m.Client(nil, p) != nil {
		t.Fatal("nil client wrapped")
	}
}

// A turn's usage is the difference since before it, recorded under its
// number; turn 0 is returned and not recorded; the context figure keeps
// its source.
func TestFinishTurnAndContext(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	s, _ := st.CreateSession(ctx, store.NewSession{Title: "s", Kind: store.KindChat})
	m := New(st, nil)
	m.Update(s.ID, func(st *State) { st.Session.PromptTokens, st.Session.Requests = 100, 1 })
	before := m.Of(ctx, s.ID)
	m.Update(s.ID, func(st *State) { st.Session.PromptTokens, st.Session.Requests = 350, 3 })
	tu := m.FinishTurn(ctx, s.ID, 2, before)
	if tu.Turn != 2 || tu.PromptTokens != 250 || tu.Requests != 2 {
		t.Fatalf("turn usage %+v", tu)
	}
	if got, ok := m.TurnOf(ctx, s.ID, 2); !ok || got != tu {
		t.Fatalf("recorded %+v %v", got, ok)
	}
	m.FinishTurn(ctx, s.ID, 0, before)
	if _, ok := m.TurnOf(ctx, s.ID, 0); ok {
		t.Fatal("turn 0 was recorded")
	}
	m.SetContext(s.ID, 1234, SourceEstimate)
	if st := m.Load(ctx, s.ID); st.ContextTokens != 1234 || st.ContextSource != SourceEstimate || st.Session.Requests != 3 {
		t.Fatalf("state %+v", st)
	}
}
