package eventbus

import "sync"

// Event is what the bus needs of the events it carries, as methods of P,
// the pointer to the event type E: the bus reads and stamps the event in
// place, never copying it for a call (an event is a few hundred bytes and
// Publish runs per streamed delta).
type Event[E any] interface {
	*E
	// BusSession is the session whose stream the event belongs to; each
	// session has its own seq and replay ring.
	BusSession() string
	// BusSeq is the seq the bus stamped on the event (0 before Publish).
	BusSeq() int64
	// SetBusSeq stamps the event with seq.
	SetBusSeq(seq int64)
	// Continues reports whether the event is a delta that may be appended
	// to prev, the newest event queued for a subscriber. A terminal event
	// must answer false: it is then never merged.
	Continues(prev *E) bool
	// DeltaText is the text a delta adds.
	DeltaText() string
	// SetDeltaText replaces the event's text with text (the text of the
	// deltas merged into it).
	SetDeltaText(text string)
}

// Bus assigns each session's events a monotonically increasing seq and fans
// them out. It is safe for concurrent use: Publish may be called from any
// goroutine, and a session's events reach every subscriber in seq order.
//
// A subscriber that falls behind has consecutive deltas of the same message
// merged (so text is never lost, only batched); terminal events are always
// delivered individually.
type Bus[E any, P Event[E]] struct {
	mu       sync.Mutex
	sessions map[string]*sessionLog[E]
	subs     []*subscriber[E, P]
	// next is the event being published, read and stamped in place
	// (Publish); guarded by mu.
	next E
}

// sessionLog is one session's seq counter and replay ring.
type sessionLog[E any] struct {
	seq  int64
	ring ring[E]
}

// New returns an empty bus (New[Event]() infers P as *Event).
func New[E any, P Event[E]]() *Bus[E, P] {
	return &Bus[E, P]{sessions: map[string]*sessionLog[E]{}}
}

// Publish stamps e with the next seq of its session and delivers it.
func (b *Bus[E, P]) Publish(e E) E {
	b.mu.Lock()
	// P's methods are called through the instantiation's dictionary, so a
	// pointer handed to them escapes: they are only ever handed memory the
	// bus already owns (next, a ring slot, a queue), never &e, which would
	// move every published event to the heap.
	b.next = e
	sid := P(&b.next).BusSession()
	l := b.sessions[sid]
	if l == nil {
		l = &sessionLog[E]{}
		b.sessions[sid] = l
	}
	l.seq++
	slot := l.ring.push(&b.next)
	P(slot).SetBusSeq(l.seq)
	for _, s := range b.subs {
		s.push(slot)
	}
	e = *slot
	b.mu.Unlock()
	return e
}

// LastSeq is the newest seq of a session.
func (b *Bus[E, P]) LastSeq(sessionID string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l := b.sessions[sessionID]; l != nil {
		return l.seq
	}
	return 0
}

// Since returns the buffered events after seq, and false when the buffer no
// longer reaches back that far (the caller must reload instead).
func (b *Bus[E, P]) Since(sessionID string, seq int64) ([]E, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.sessions[sessionID]
	if l == nil || seq >= l.seq {
		return nil, true
	}
	r := &l.ring
	n := r.len()
	if n == 0 || P(r.at(0)).BusSeq() > seq+1 {
		return nil, false
	}
	var out []E
	for i := 0; i < n; i++ {
		if e := r.at(i); P(e).BusSeq() > seq {
			out = append(out, *e)
		}
	}
	return out, true
}

// Forget drops a deleted session's buffer.
func (b *Bus[E, P]) Forget(sessionID string) {
	b.mu.Lock()
	if l := b.sessions[sessionID]; l != nil {
		l.ring = ring[E]{}
	}
	b.mu.Unlock()
}

// Subscribe delivers every event to fn on a dedicated goroutine, in order.
// The returned func unsubscribes and waits for the goroutine to finish.
func (b *Bus[E, P]) Subscribe(fn func(E)) (unsubscribe func()) { return b.SubscribeFlush(fn, nil) }

// SubscribeFlush is Subscribe, with flush (when not nil) called after each
// run of events handed to fn: all that were queued when the goroutine woke.
// A subscriber that buffers what fn sends writes it out in flush, once
// per run instead of once per event.
func (b *Bus[E, P]) SubscribeFlush(fn func(E), flush func()) (unsubscribe func()) {
	s := &subscriber[E, P]{fn: fn, flush: flush, wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.mu.Lock()
	b.subs = append(append([]*subscriber[E, P](nil), b.subs...), s)
	b.mu.Unlock()
	go s.loop()
	return func() {
		b.mu.Lock()
		var keep []*subscriber[E, P]
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
