package wire

import (
	"context"
	"sync"
)

// Batch gathers the notifications sent with its context into one write.
//
// The event subscriber hands the client every queued event in a row; one
// write per event cost a system call each on the sidecar's side and a
// wake-up on the editor's, a sixth of the sidecar's CPU while a reply
// streams (issue 17's rpcbench). With a Batch in the context, Notify
// appends the framed message to the batch instead, and Flush writes all
// of them at once. Nothing else changes: requests and replies are written
// as they come, and a batch that grows past batchFlushAt is written early,
// so a long run of events neither waits nor piles up in memory.
//
// Concurrency: a Batch belongs to one goroutine (the subscriber's); mu
// only guards against a Flush racing an early write on misuse.
type Batch struct {
	mu   sync.Mutex
	conn *Conn
	buf  []byte
}

// batchFlushAt is the size at which a batch is written without waiting
// for Flush.
const batchFlushAt = 64 << 10

// maxKeptBatch keeps one huge notification from pinning its buffer.
const maxKeptBatch = 1 << 20

type batchKey struct{}

// WithBatch returns ctx carrying b: notifications sent with it are held
// in b until b.Flush.
func WithBatch(ctx context.Context, b *Batch) context.Context {
	return context.WithValue(ctx, batchKey{}, b)
}

func batchFrom(ctx context.Context) *Batch {
	b, _ := ctx.Value(batchKey{}).(*Batch)
	return b
}

// add appends one framed message for c, writing the batch first when it
// belongs to another connection or has grown large.
func (b *Batch) add(c *Conn, frame []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var err error
	if b.conn != nil && b.conn != c {
		err = b.flushLocked()
	}
	b.conn = c
	b.buf = append(b.buf, frame...)
	if len(b.buf) >= batchFlushAt {
		if ferr := b.flushLocked(); err == nil {
			err = ferr
		}
	}
	return err
}

// Flush writes the held notifications in one write. A batch with nothing
// held writes nothing.
func (b *Batch) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Batch) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	err := b.conn.writeRaw(b.buf)
	if cap(b.buf) > maxKeptBatch {
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
	return err
}
