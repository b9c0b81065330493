package eventbus

import (
	"github.com/govibe/govibe/protocol/kinds"
	"sync"
	"testing"
)

// SubscribeFlush calls flush after each run of events handed to fn, never
// in the middle of one, and every event has been handed over (in seq
// order) before the flush that follows it.
func TestSubscribeFlushAfterEachRun(t *testing.T) {
	b := New[event]()
	var mu sync.Mutex
	var log []string // "e" per event, "f" per flush
	var handed []int64
	done := make(chan struct{})
	unsub := b.SubscribeFlush(func(e event) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, "e")
		handed = append(handed, e.Seq)
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, "f")
		if len(handed) > 0 && handed[len(handed)-1] == 2001 {
			select {
			case <-done:
			default:
				close(done)
			}
		}
	})
	for range 2000 {
		b.Publish(event{SessionID: "s", Kind: kinds.Notice})
	}
	b.Publish(event{SessionID: "s", Kind: kinds.TurnFinished})
	<-done
	unsub()
	mu.Lock()
	defer mu.Unlock()
	if len(log) == 0 || log[0] != "e" || log[len(log)-1] != "f" {
		t.Fatalf("the log must start with an event and end with a flush: %v...%v", log[:min(3, len(log))], log[max(0, len(log)-3):])
	}
	for i := 1; i < len(log); i++ {
		if log[i] == "f" && log[i-1] == "f" {
			t.Fatalf("two flushes in a row at %d: a flush without events", i)
		}
	}
	for i, s := range handed {
		if s != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, s)
		}
	}
}

// The ring keeps the newest RingSize events across block boundaries and
// wrap-around.
func TestRingWrapsAcrossBlocks(t *testing.T) {
	var r ring[event]
	for i := 1; i <= RingSize+ringBlock+7; i++ {
		r.push(&event{Seq: int64(i)})
		if want := min(i, RingSize); r.len() != want {
			t.Fatalf("after %d pushes len %d, want %d", i, r.len(), want)
		}
		if first := max(1, i-RingSize+1); r.at(0).Seq != int64(first) || r.at(r.len()-1).Seq != int64(i) {
			t.Fatalf("after %d pushes the ring holds %d..%d, want %d..%d", i, r.at(0).Seq, r.at(r.len()-1).Seq, first, i)
		}
	}
}
