package compaction

import (
	"context"
	"fmt"
	"sync"
)

// slots is a compactor's in-memory state: which sessions are compacting
// and which refuse compaction (a todo plan runs). All methods are safe for
// concurrent use; mu guards both maps.
type slots struct {
	mu       sync.Mutex
	inflight map[string]chan struct{} // closed when that compaction ends
	blocked  map[string]string        // session → why compaction is refused
}

func newSlots() slots {
	return slots{inflight: map[string]chan struct{}{}, blocked: map[string]string{}}
}

// acquire takes the session's compaction slot. With wait it waits for a
// running compaction to end first (ctx permitting); without, a running
// compaction is ErrCompacting. The returned func releases the slot.
func (s *slots) acquire(ctx context.Context, sid string, wait bool) (func(), error) {
	for {
		s.mu.Lock()
		ch, busy := s.inflight[sid]
		if !busy {
			done := make(chan struct{})
			s.inflight[sid] = done
			s.mu.Unlock()
			return func() {
				s.mu.Lock()
				delete(s.inflight, sid)
				s.mu.Unlock()
				close(done)
			}, nil
		}
		s.mu.Unlock()
		if !wait {
			return nil, ErrCompacting
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// acquireNow takes the slot for an explicit request (command, button,
// tool): refused while blocked or busy.
func (s *slots) acquireNow(ctx context.Context, sid string) (func(), error) {
	if why := s.blockedWhy(sid); why != "" {
		return nil, fmt.Errorf("compaction is not available now: %s", why)
	}
	return s.acquire(ctx, sid, false)
}

// running returns the channel of the session's running compaction, or nil.
func (s *slots) running(sid string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight[sid]
}

func (s *slots) blockedWhy(sid string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocked[sid]
}

func (s *slots) block(sid, why string) func() {
	s.mu.Lock()
	s.blocked[sid] = why
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.blocked[sid] == why {
				delete(s.blocked, sid)
			}
			s.mu.Unlock()
		})
	}
}
