package usage

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/govibe/govibe/server/internal/storage/store"
)

// countingStore counts state writes.
type countingStore struct {
	*store.Store
	writes atomic.Int64
}

func (c *countingStore) SetState(ctx context.Context, sid, key string, v json.RawMessage) error {
	c.writes.Add(1)
	return c.Store.SetState(ctx, sid, key, v)
}

func (c *countingStore) SetStateRelaxed(ctx context.Context, sid, key string, v json.RawMessage) error {
	c.writes.Add(1)
	return c.Store.SetStateRelaxed(ctx, sid, key, v)
}

// The context figure is set before every model request; setting the same
// figure again must not commit anything (a read round paid for it).
func TestUpdateThatChangesNothingDoesNotWrite(t *testing.T) {
	s := &countingStore{Store: openStore(t)}
	sess, err := s.CreateSession(context.Background(), store.NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(s, nil)
	m.SetContext(sess.ID, 1200, SourceEstimate)
	if n := s.writes.Load(); n != 1 {
		t.Fatalf("first SetContext wrote %d times, want 1", n)
	}
	for i := 0; i < 5; i++ {
		m.SetContext(sess.ID, 1200, SourceEstimate)
	}
	if n := s.writes.Load(); n != 1 {
		t.Fatalf("setting the same context again wrote: %d writes, want 1", n)
	}
	m.SetContext(sess.ID, 1300, SourceEstimate)
	if n := s.writes.Load(); n != 2 {
		t.Fatalf("a changed context wrote %d times in all, want 2", n)
	}
	if st := m.Load(context.Background(), sess.ID); st.ContextTokens != 1300 || st.ContextSource != SourceEstimate {
		t.Fatalf("stored context = %d %q", st.ContextTokens, st.ContextSource)
	}
}
