package eventbus

import (
	"github.com/govibe/govibe/protocol/kinds"
	"sync"
	"testing"
)

func TestBusSeqOrderAndReplay(t *testing.T) {
	b := New[event]()
	var mu sync.Mutex
	var got []event
	done := make(chan struct{})
	unsub := b.Subscribe(func(e event) {
		mu.Lock()
		got = append(got, e)
		if e.Kind == kinds.TurnFinished && e.SessionID == "a" {
			close(done)
		}
		mu.Unlock()
	})
	n := 3 * RingSize
	for i := 0; i < n; i++ {
		b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m", Text: "x"})
		if i%100 == 0 {
			b.Publish(event{SessionID: "b", Kind: kinds.Notice})
		}
	}
	b.Publish(event{SessionID: "a", Kind: kinds.TurnFinished})
	<-done
	unsub()
	// Per session, seq increases and text is never lost, even when a slow
	// subscriber had deltas merged.
	var last int64
	chars := 0
	for _, e := range got {
		if e.SessionID != "a" {
			continue
		}
		if e.Seq <= last {
			t.Fatalf("seq %d after %d", e.Seq, last)
		}
		last = e.Seq
		chars += len(e.Text)
	}
	if chars != n {
		t.Fatalf("delivered %d chars, want %d", chars, n)
	}
	if got := b.LastSeq("a"); got != int64(n+1) {
		t.Fatalf("last seq %d", got)
	}
	// The ring reaches back at least RingSize events and no further than 2×.
	evs, ok := b.Since("a", int64(n+1-RingSize))
	if !ok || len(evs) != RingSize {
		t.Fatalf("since: ok=%v len=%d", ok, len(evs))
	}
	if _, ok := b.Since("a", 1); ok {
		t.Fatal("events older than the ring must ask for a reload")
	}
}

func BenchmarkBusPublish(b *testing.B) {
	bus := New[event]()
	unsub := bus.Subscribe(func(event) {})
	defer unsub()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bus.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m", Text: "x"})
	}
}
