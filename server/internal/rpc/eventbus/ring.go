package eventbus

// RingSize bounds the per-session replay buffer: a client that reconnects
// within the last RingSize events resumes from its seq; an older one
// reloads the session.
const RingSize = 8192

const ringBlock = 512

// ring holds a session's last RingSize events in fixed blocks of
// ringBlock, allocated as the session first reaches them: once full, each
// event overwrites the oldest, so publishing never copies the buffer. (A
// slice grown by append copied it at every doubling, ~3 MB per session on
// the way to 8,192 events, a tenth of a 10,000-delta turn's CPU with the
// garbage it left.)
type ring[E any] struct {
	blocks [RingSize / ringBlock]*[ringBlock]E
	n      int // events held, at most RingSize
	start  int // index of the oldest event once full
}

// push copies e into the ring and returns its slot.
func (r *ring[E]) push(e *E) *E {
	i := r.n
	if r.n == RingSize {
		i = r.start
		r.start = (r.start + 1) % RingSize
	} else {
		r.n++
	}
	b := r.blocks[i/ringBlock]
	if b == nil {
		b = new([ringBlock]E)
		r.blocks[i/ringBlock] = b
	}
	b[i%ringBlock] = *e
	return &b[i%ringBlock]
}

// len is how many events the ring holds.
func (r *ring[E]) len() int { return r.n }

// at returns the i-th oldest event, in place.
func (r *ring[E]) at(i int) *E {
	j := (r.start + i) % RingSize
	return &r.blocks[j/ringBlock][j%ringBlock]
}
