package engine

import (
	"context"
	"errors"
	"sync"
)

// ErrCompacting is returned when a session already runs a compaction.
var ErrCompacting = errors.New("this session is already summarising its earlier messages")

// compactRegistry is an engine's in-memory compaction state: which sessions
// are compacting and which refuse compaction (scheduling mode). All
// methods are safe for concurrent use; mu guards every map.
type compactRegistry struct {
	mu       sync.Mutex
	inflight map[string]chan struct{} // closed when that compaction ends
	blocked  map[string]string        // session → why compaction is refused
}

func newCompactRegistry() *compactRegistry {
	return &compactRegistry{inflight: map[string]chan struct{}{}, blocked: map[string]string{}}
}

// compactReg is the engine's compaction state.
func (e *Engine) compactReg() *compactRegistry { return e.compactions }

// acquire takes the session's compaction slot. With wait it waits for a
// running compaction to end first (ctx permitting); without, a running
// compaction is ErrCompacting. The returned func releases the slot.
func (r *compactRegistry) acquire(ctx context.Context, sid string, wait bool) (func(), error) {
	for {
		r.mu.Lock()
		ch, busy := r.inflight[sid]
		if !busy {
			done := make(chan struct{})
			r.inflight[sid] = done
			r.mu.Unlock()
			return func() {
				r.mu.Lock()
				delete(r.inflight, sid)
				r.mu.Unlock()
				close(done)
			}, nil
		}
		r.mu.Unlock()
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

// running returns the channel of the session's running compaction, or nil.
func (r *compactRegistry) running(sid string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inflight[sid]
}

func (r *compactRegistry) blockedWhy(sid string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.blocked[sid]
}

// BlockCompaction refuses global compaction of a session (automatic, the
// /compact command, the button and the tool) until the returned func is
// called. The scheduler holds it while executor and evaluator agents run:
// global compaction is a free-phase operation.
func (e *Engine) BlockCompaction(sid, why string) (unblock func()) {
	r := e.compactReg()
	r.mu.Lock()
	r.blocked[sid] = why
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			if r.blocked[sid] == why {
				delete(r.blocked, sid)
			}
			r.mu.Unlock()
		})
	}
}
