package wire

import (
	"runtime/debug"
	"sync"
	"time"
)

// bigMessage is the size from which a message's memory is given back to
// the system once it has been handled. The Go runtime keeps freed heap
// for reuse; after one 60 MB message the sidecar held several hundred MB
// for good (issue 31).
const bigMessage = 4 << 20

// releaseGap bounds how often memory is given back: debug.FreeOSMemory
// runs a whole collection, and a peer sending many large messages must
// not turn that into the sidecar's main work.
const releaseGap = time.Second

// replyHold is how long a large reply to one of our calls is left to its
// caller before its memory is given back: jsonrpc2 hands it over after
// ReadObject returns, so the release cannot follow the use directly.
const replyHold = 2 * time.Second

// releaser calls free after large messages, at most once per gap; a
// release asked for within the gap happens at its end, once, so the last
// large message of a burst is always followed by one.
type releaser struct {
	mu      sync.Mutex
	gap     time.Duration
	free    func()
	last    time.Time
	pending bool
}

var memory = &releaser{gap: releaseGap, free: debug.FreeOSMemory}

// release asks for a release after delay (or after the gap since the
// last one, if that is later), without waiting for it.
func (r *releaser) release(delay time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending {
		return
	}
	r.pending = true
	wait := max(time.Until(r.last.Add(r.gap)), delay)
	time.AfterFunc(wait, func() {
		// A release asked for from here on is a new one, a gap later.
		r.mu.Lock()
		r.pending, r.last = false, time.Now()
		r.mu.Unlock()
		r.free()
	})
}
