package engine

import (
	"strings"
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
	mu       sync.Mutex
	sessions map[string]*sessionLog
	subs     []*subscriber
}

// sessionLog is one session's seq counter and replay ring.
type sessionLog struct {
	seq  int64
	ring ring
}

// ring holds a session's last ringSize events in fixed blocks of
// ringBlock, allocated as the session first reaches them: once full, each
// event overwrites the oldest, so publishing never copies the buffer. (A
// slice grown by append copied it at every doubling, ~3 MB per session on
// the way to 8,192 events, a tenth of a 10,000-delta turn's CPU with the
// garbage it left.)
type ring struct {
	blocks [ringSize / ringBlock]*[ringBlock]Event
	n      int // events held, at most ringSize
	start  int // index of the oldest event once full
}

const ringBlock = 512

func (r *ring) push(e Event) {
	i := r.n
	if r.n == ringSize {
		i = r.start
		r.start = (r.start + 1) % ringSize
	} else {
		r.n++
	}
	b := r.blocks[i/ringBlock]
	if b == nil {
		b = new([ringBlock]Event)
		r.blocks[i/ringBlock] = b
	}
	b[i%ringBlock] = e
}

// len is how many events the ring holds.
func (r *ring) len() int { return r.n }

// at returns the i-th oldest event.
func (r *ring) at(i int) Event {
	j := (r.start + i) % ringSize
	return r.blocks[j/ringBlock][j%ringBlock]
}

func NewBus() *Bus {
	return &Bus{sessions: map[string]*sessionLog{}}
}

// Publish stamps e with the next seq of its session and delivers it.
func (b *Bus) Publish(e Event) Event {
	b.mu.Lock()
	l := b.sessions[e.SessionID]
	if l == nil {
		l = &sessionLog{}
		b.sessions[e.SessionID] = l
	}
	l.seq++
	e.Seq = l.seq
	l.ring.push(e)
	for _, s := range b.subs {
		s.push(e)
	}
	b.mu.Unlock()
	return e
}

// LastSeq is the newest seq of a session.
func (b *Bus) LastSeq(sessionID string) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l := b.sessions[sessionID]; l != nil {
		return l.seq
	}
	return 0
}

// Since returns the buffered events after seq, and false when the buffer no
// longer reaches back that far (the caller must reload instead).
func (b *Bus) Since(sessionID string, seq int64) ([]Event, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.sessions[sessionID]
	if l == nil || seq >= l.seq {
		return nil, true
	}
	r := &l.ring
	n := r.len()
	if n == 0 || r.at(0).Seq > seq+1 {
		return nil, false
	}
	var out []Event
	for i := 0; i < n; i++ {
		if e := r.at(i); e.Seq > seq {
			out = append(out, e)
		}
	}
	return out, true
}

// Forget drops a deleted session's buffer.
func (b *Bus) Forget(sessionID string) {
	b.mu.Lock()
	if l := b.sessions[sessionID]; l != nil {
		l.ring = ring{}
	}
	b.mu.Unlock()
}

// Subscribe delivers every event to fn on a dedicated goroutine, in order.
// The returned func unsubscribes and waits for the goroutine to finish.
func (b *Bus) Subscribe(fn func(Event)) (unsubscribe func()) { return b.SubscribeFlush(fn, nil) }

// SubscribeFlush is Subscribe, with flush (when not nil) called after each
// run of events handed to fn: all that were queued when the goroutine woke.
// A subscriber that buffers what fn sends writes it out in flush, once
// per run instead of once per event.
func (b *Bus) SubscribeFlush(fn func(Event), flush func()) (unsubscribe func()) {
	s := &subscriber{fn: fn, flush: flush, wake: make(chan struct{}, 1), done: make(chan struct{})}
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

// mergeBacklog is the queue length above which deltas are merged. Below
// it every event is delivered as published, so a client that keeps up sees
// seq increase by one.
const mergeBacklog = 256

// subscriber delivers events to fn on its own goroutine.
//
// Once more than mergeBacklog events wait for fn, a delta is merged into
// the queued delta of the same message, so a subscriber that writes to a
// slower editor sends fewer, longer deltas instead of falling further
// behind. A delta is only merged into one that fn has not been handed yet,
// so merging never delays anything; terminal events are never merged.
//
// Concurrency: push may be called from any goroutine (Publish calls it
// under the bus lock); mu guards queue and closed. loop is the only reader.
type subscriber struct {
	fn     func(Event)
	flush  func()
	mu     sync.Mutex
	queue  []pending
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

// pending is a queued event; more holds the text of deltas merged into it,
// so a long run of merges appends instead of copying the text each time.
type pending struct {
	ev   Event
	more *strings.Builder
}

func (p *pending) event() Event {
	if p.more != nil {
		p.ev.Text = p.more.String()
	}
	return p.ev
}

func mergeable(into, e *Event) bool {
	return !e.terminal() && into.Kind == e.Kind && into.SessionID == e.SessionID &&
		into.MessageID == e.MessageID && into.TurnID == e.TurnID && into.SubAgentTag == e.SubAgentTag
}

func (s *subscriber) push(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if n := len(s.queue); n > mergeBacklog && mergeable(&s.queue[n-1].ev, &e) {
		last := &s.queue[n-1]
		if last.more == nil {
			last.more = &strings.Builder{}
			last.more.WriteString(last.ev.Text)
		}
		last.more.WriteString(e.Text)
		last.ev.Seq = e.Seq
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, pending{ev: e})
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) loop() {
	defer close(s.done)
	var spare []pending
	for {
		s.mu.Lock()
		batch := s.queue
		// The drained batch's array is reused for the next queue once fn
		// has seen its events.
		s.queue = spare[:0]
		closed := s.closed
		s.mu.Unlock()
		for i := range batch {
			s.fn(batch[i].event())
			batch[i] = pending{}
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
