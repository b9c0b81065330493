package engine

import (
	"sync"
)

// ringSize bounds the per-session replay buffer: a client that reconnects
// within the last ringSize events resumes from its seq; an older one
// reloads the session.
const ringSize = 8192

// Bus assigns each session's events a monotonically increasing seq and fans
// them out. It is safe for concurrent use: Publish may be called from any
// goroutine, and a session's events reach every subscriber in seq order.
//
// A subscriber that falls behind has consecutive deltas of the same message
// merged (so text is never lost, only batched); terminal events are always
// delivered individually.
type Bus struct {
	mu   sync.Mutex
	seq  map[string]int64
	ring map[string][]Event
	subs []*subscriber
}

func NewBus() *Bus {
	return &Bus{seq: map[string]int64{}, ring: map[string][]Event{}}
}

// Publish stamps e with the next seq of its session and delivers it.
func (b *Bus) Publish(e Event) Event {
	b.mu.Lock()
	b.seq[e.SessionID]++
	e.Seq = b.seq[e.SessionID]
	r := append(b.ring[e.SessionID], e)
	// Trim only at twice the size, so the copy is amortised over ringSize
	// publishes instead of paid on every one.
	if len(r) >= 2*ringSize {
		r = append(r[:0:0], r[len(r)-ringSize:]...)
	}
	b.ring[e.SessionID] = r
	subs := b.subs
	for _, s := range subs {
		s.push(e)
	}
	b.mu.Unlock()
	return e
}

// LastSeq is the newest seq of a session.
func (b *Bus) LastSeq(sessionID string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seq[sessionID]
}

// Since returns the buffered events after seq, and false when the buffer no
// longer reaches back that far (the caller must reload instead).
func (b *Bus) Since(sessionID string, seq int64) ([]Event, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.ring[sessionID]
	if seq >= b.seq[sessionID] {
		return nil, true
	}
	if len(r) == 0 || r[0].Seq > seq+1 {
		return nil, false
	}
	var out []Event
	for _, e := range r {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out, true
}

// Forget drops a deleted session's buffer.
func (b *Bus) Forget(sessionID string) {
	b.mu.Lock()
	delete(b.ring, sessionID)
	b.mu.Unlock()
}

// Subscribe delivers every event to fn on a dedicated goroutine, in order.
// The returned func unsubscribes and waits for the goroutine to finish.
func (b *Bus) Subscribe(fn func(Event)) (unsubscribe func()) {
	s := &subscriber{fn: fn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.mu.Lock()
	b.subs = append(append([]*subscriber(nil), b.subs...), s)
	b.mu.Unlock()
	go s.loop()
	return func() {
		b.mu.Lock()
		var keep []*subscriber
		for _, x := range b.subs {
			if x != s {
				keep = append(keep, x)
			}
		}
		b.subs = keep
		b.mu.Unlock()
		s.close()
	}
}

// mergeBacklog is the queue length above which deltas are merged.
const mergeBacklog = 256

type subscriber struct {
	fn     func(Event)
	mu     sync.Mutex
	queue  []Event
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func (s *subscriber) push(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if n := len(s.queue); n > mergeBacklog && !e.terminal() {
		last := &s.queue[n-1]
		if last.Kind == e.Kind && last.SessionID == e.SessionID && last.MessageID == e.MessageID {
			last.Text += e.Text
			last.Seq = e.Seq
			s.mu.Unlock()
			return
		}
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) loop() {
	defer close(s.done)
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		closed := s.closed
		s.mu.Unlock()
		for _, e := range batch {
			s.fn(e)
		}
		if closed && len(batch) == 0 {
			return
		}
		if len(batch) == 0 {
			<-s.wake
		}
	}
}

func (s *subscriber) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	<-s.done
}
