package eventbus

import (
	"strings"
	"sync"
)

// MergeBacklog is the queue length above which deltas are merged. Below
// it every event is delivered as published, so a client that keeps up sees
// seq increase by one.
const MergeBacklog = 256

// subscriber delivers events to fn on its own goroutine.
//
// Once more than MergeBacklog events wait for fn, a delta is merged into
// the queued delta of the same message, so a subscriber that writes to a
// slower editor sends fewer, longer deltas instead of falling further
// behind. A delta is only merged into one that fn has not been handed yet,
// so merging never delays anything; terminal events are never merged.
//
// Concurrency: push may be called from any goroutine (Publish calls it
// under the bus lock); mu guards queue and closed. loop is the only reader.
type subscriber[E any, P Event[E]] struct {
	fn     func(E)
	flush  func()
	mu     sync.Mutex
	queue  []pending[E]
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

// pending is a queued event; more holds the text of deltas merged into it,
// so a long run of merges appends instead of copying the text each time.
type pending[E any] struct {
	ev   E
	more *strings.Builder
}

// delivered is the queued event with the text merged into it.
func delivered[E any, P Event[E]](p *pending[E]) E {
	if p.more != nil {
		P(&p.ev).SetDeltaText(p.more.String())
	}
	return p.ev
}

func (s *subscriber[E, P]) push(e *E) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if n := len(s.queue); n > MergeBacklog && P(e).Continues(&s.queue[n-1].ev) {
		last := &s.queue[n-1]
		if last.more == nil {
			last.more = &strings.Builder{}
			last.more.WriteString(P(&last.ev).DeltaText())
		}
		last.more.WriteString(P(e).DeltaText())
		P(&last.ev).SetBusSeq(P(e).BusSeq())
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, pending[E]{ev: *e})
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber[E, P]) loop() {
	defer close(s.done)
	var spare []pending[E]
	for {
		s.mu.Lock()
		batch := s.queue
		// The drained batch's array is reused for the next queue once fn
		// has seen its events.
		s.queue = spare[:0]
		closed := s.closed
		s.mu.Unlock()
		for i := range batch {
			s.fn(delivered[E, P](&batch[i]))
			batch[i] = pending[E]{}
		}
		if len(batch) > 0 && s.flush != nil {
			s.flush()
		}
		spare = batch
		if closed && len(batch) == 0 {
			return
		}
		if len(batch) == 0 {
			<-s.wake
		}
	}
}

func (s *subscriber[E, P]) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	<-s.done
}
