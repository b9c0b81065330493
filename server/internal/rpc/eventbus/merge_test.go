package eventbus

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
)

// blockedSubscriber subscribes a consumer that holds its first event until
// release is closed, and records everything it is handed.
func blockedSubscriber(t *testing.T, b *Bus[event, *event]) (got func() []event, first <-chan struct{}, release chan struct{}, unsub func()) {
	t.Helper()
	var mu sync.Mutex
	var events []event
	firstC := make(chan struct{})
	release = make(chan struct{})
	var once sync.Once
	unsub = b.Subscribe(func(e event) {
		once.Do(func() { close(firstC); <-release })
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	return func() []event {
		mu.Lock()
		defer mu.Unlock()
		return append([]event(nil), events...)
	}, firstC, release, unsub
}

// Once more than MergeBacklog events wait behind a busy subscriber, deltas
// are merged per message; nothing is lost, seq still increases, terminal
// events and other messages' deltas stay separate and in order, and a
// backlog up to MergeBacklog is delivered event by event.
func TestDeltasQueuedBehindABusySubscriberAreMerged(t *testing.T) {
	b := New[event]()
	got, first, release, unsub := blockedSubscriber(t, b)
	b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m1", Text: "<"})
	<-first
	var want strings.Builder
	want.WriteString("<")
	const n = 1000
	for i := 0; i < n; i++ {
		s := fmt.Sprint(i % 10)
		want.WriteString(s)
		b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m1", Text: s})
	}
	b.Publish(event{SessionID: "a", Kind: kinds.ReasoningDelta, MessageID: "m1", Text: "r"})
	b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m2", Text: "x"})
	b.Publish(event{SessionID: "b", Kind: kinds.TextDelta, MessageID: "m2", Text: "y"})
	b.Publish(event{SessionID: "a", Kind: kinds.ToolCall, MessageID: "m2"})
	b.Publish(event{SessionID: "a", Kind: kinds.ToolCall, MessageID: "m2"})
	b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m2", Text: "z"})
	close(release)
	unsub()
	evs := got()
	// The one handed over, MergeBacklog+1 queued singly, then one merged.
	singles := 1 + MergeBacklog + 1
	if len(evs) != singles+6 {
		t.Fatalf("delivered %d events, want %d", len(evs), singles+6)
	}
	var text strings.Builder
	for i, e := range evs[:singles] {
		if e.Kind != kinds.TextDelta || e.MessageID != "m1" {
			t.Fatalf("event %d: %+v", i, e)
		}
		if i < singles-1 && (len(e.Text) != 1 || e.Seq != int64(i+1)) {
			t.Fatalf("below the backlog limit event %d was merged: %q seq %d", i, e.Text, e.Seq)
		}
		text.WriteString(e.Text)
	}
	if text.String() != want.String() {
		t.Fatal("merged text differs from the deltas in order")
	}
	// The merged event carries the seq of the last delta in it.
	if m := evs[singles-1]; len(m.Text) != n-MergeBacklog || m.Seq != n+1 {
		t.Fatalf("merged event: %d chars, seq %d", len(m.Text), m.Seq)
	}
	var shape []string
	for _, e := range evs[singles:] {
		shape = append(shape, e.SessionID+"/"+string(e.Kind)+"/"+e.MessageID+"/"+e.Text)
	}
	wantShape := []string{
		"a/" + string(kinds.ReasoningDelta) + "/m1/r",
		"a/" + string(kinds.TextDelta) + "/m2/x",
		"b/" + string(kinds.TextDelta) + "/m2/y",
		"a/" + string(kinds.ToolCall) + "/m2/",
		"a/" + string(kinds.ToolCall) + "/m2/",
		"a/" + string(kinds.TextDelta) + "/m2/z",
	}
	if strings.Join(shape, " ") != strings.Join(wantShape, " ") {
		t.Fatalf("after the merge:\n %v\nwant\n %v", shape, wantShape)
	}
	var last int64
	for _, e := range evs {
		if e.SessionID == "a" {
			if e.Seq <= last {
				t.Fatalf("seq %d after %d", e.Seq, last)
			}
			last = e.Seq
		}
	}
	// Replay still has every delta individually.
	if r, ok := b.Since("a", 0); !ok || len(r) != n+6 {
		t.Fatalf("ring holds %d events, ok=%v", len(r), ok)
	}
}

// A subscriber that keeps up is handed every delta as its own event.
func TestKeepingUpSubscriberGetsEveryDelta(t *testing.T) {
	b := New[event]()
	handed := make(chan event)
	unsub := b.Subscribe(func(e event) { handed <- e })
	defer unsub()
	for i := 0; i < 50; i++ {
		b.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m", Text: "x"})
		if e := <-handed; e.Text != "x" || e.Seq != int64(i+1) {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
}

// BenchmarkMergeBehindBlockedSubscriber publishes one-char deltas to a
// subscriber that is stuck, so every one is merged: the cost per delta must
// not grow with the merged text (per-delta-ns at 64k deltas no higher than
// at 1k, where the bus's set-up still weighs in).
func BenchmarkMergeBehindBlockedSubscriber(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				bus := New[event]()
				release := make(chan struct{})
				first := make(chan struct{})
				var once sync.Once
				unsub := bus.Subscribe(func(event) { once.Do(func() { close(first); <-release }) })
				bus.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m", Text: "x"})
				<-first
				for i := 0; i < n; i++ {
					bus.Publish(event{SessionID: "a", Kind: kinds.TextDelta, MessageID: "m", Text: "x"})
				}
				close(release)
				unsub()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "per-delta-ns")
		})
	}
}

// A forgotten session's history is gone (a reconnecting client must
// reload), but its seq keeps counting up.
func TestForgetDropsHistoryKeepsSeq(t *testing.T) {
	b := New[event]()
	for i := 0; i < 5; i++ {
		b.Publish(event{SessionID: "a", Kind: kinds.Notice})
	}
	if evs, ok := b.Since("a", 2); !ok || len(evs) != 3 || evs[0].Seq != 3 {
		t.Fatalf("before Forget: %v %v", evs, ok)
	}
	b.Forget("a")
	if _, ok := b.Since("a", 2); ok {
		t.Fatal("Since after Forget must ask for a reload")
	}
	if evs, ok := b.Since("a", 5); !ok || len(evs) != 0 {
		t.Fatalf("up to date after Forget: %v %v", evs, ok)
	}
	if e := b.Publish(event{SessionID: "a", Kind: kinds.Notice}); e.Seq != 6 || b.LastSeq("a") != 6 {
		t.Fatalf("seq after Forget: %d", e.Seq)
	}
	if b.LastSeq("never") != 0 {
		t.Fatal("unknown session has a seq")
	}
}
