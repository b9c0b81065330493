package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"
)

// countingWriter records each Write separately.
type countingWriter struct {
	mu     sync.Mutex
	writes []string
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func (w *countingWriter) snapshot() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.writes...)
}

func batchConn(t *testing.T) (*Conn, *countingWriter) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	out := &countingWriter{}
	c := Serve(context.Background(), rwc{pr, out}, func(context.Context, string, json.RawMessage) (any, error) {
		return nil, nil
	}, zap.NewNop())
	return c, out
}

// Notifications sent with a Batch are held until Flush, then written in
// one write, whole and in order; without a Batch each is written at once.
func TestBatchHoldsNotificationsUntilFlush(t *testing.T) {
	c, out := batchConn(t)
	b := &Batch{}
	ctx := WithBatch(context.Background(), b)
	for i := range 3 {
		if err := c.Notify(ctx, "chat/event", map[string]any{"seq": i}); err != nil {
			t.Fatal(err)
		}
	}
	if w := out.snapshot(); len(w) != 0 {
		t.Fatalf("batched notifications were written before Flush: %q", w)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	w := out.snapshot()
	if len(w) != 1 {
		t.Fatalf("want one write for the batch, got %d: %q", len(w), w)
	}
	want := ""
	for i := range 3 {
		want += frame(map[string]any{"jsonrpc": "2.0", "method": "chat/event", "params": map[string]any{"seq": i}})
	}
	if w[0] != want {
		t.Fatalf("batch wrote\n%q\nwant\n%q", w[0], want)
	}
	if err := b.Flush(); err != nil || len(out.snapshot()) != 1 {
		t.Fatalf("an empty Flush wrote something (err %v)", err)
	}
	if err := c.Notify(context.Background(), "x/y", nil); err != nil || len(out.snapshot()) != 2 {
		t.Fatalf("a notification without a batch was not written at once (err %v)", err)
	}
}

// A batch that grows past batchFlushAt is written without waiting for
// Flush, so a long run of events neither waits nor piles up.
func TestBatchWritesEarlyWhenLarge(t *testing.T) {
	c, out := batchConn(t)
	b := &Batch{}
	ctx := WithBatch(context.Background(), b)
	text := strings.Repeat("x", 1000)
	n := 0
	for len(out.snapshot()) == 0 {
		if n > 2*batchFlushAt/len(text) {
			t.Fatalf("%d notifications of 1 KB held without a write", n)
		}
		if err := c.Notify(ctx, "chat/event", map[string]any{"text": text, "n": n}); err != nil {
			t.Fatal(err)
		}
		n++
	}
	b.Flush()
	all := strings.Join(out.snapshot(), "")
	for i := range n {
		if !strings.Contains(all, fmt.Sprintf(`"n":%d,`, i)) {
			t.Fatalf("notification %d missing after the early write and Flush", i)
		}
	}
}

// Sending on a closed connection through a batch reports the close at
// Flush rather than losing it silently.
func TestBatchFlushOnClosedConn(t *testing.T) {
	c, _ := batchConn(t)
	b := &Batch{}
	ctx := WithBatch(context.Background(), b)
	c.Close()
	<-c.Done()
	_ = c.Notify(ctx, "chat/event", map[string]any{})
	if err := b.Flush(); err == nil {
		t.Fatal("Flush on a closed connection returned no error")
	}
}
