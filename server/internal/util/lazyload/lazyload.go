// Package lazyload holds a value that is loaded on first use and loaded
// again after Reset or when the files it came from change: the "load
// once, reload when the folders change" pattern of the skills catalog,
// the hooks configuration and the custom slash commands.
//
// Concurrency guarantees (a Loader is safe for concurrent use):
//
//   - Loads never overlap: callers that find no current value wait for
//     the one load in progress and then take its result if it is still
//     current (the stamp, read again, is the same), so concurrent first
//     callers load once and Kept reports once.
//   - Kept runs once for each value that becomes the current one, after
//     it is visible, outside every lock (it may report problems, publish
//     or call Get itself). A value that is not kept is never passed to it.
//   - Reset during a load wins: the load's value is returned to the
//     caller that started it (whose Get began before the Reset) but is
//     not kept, so the next Get loads again under what changed (trust, a
//     setting).
//   - The stamp is read before the load: a file changed while loading
//     makes the next Get see a new stamp and load again, never miss it.
//
// Load must not call Get on its own Loader (it would wait for itself);
// Reset from anywhere is fine.
package lazyload

import "sync"

// Options configure a Loader.
type Options[T any] struct {
	// Load builds the value; required.
	Load func() T
	// Stamp fingerprints what Load reads (customcmd.Stamp: the folders'
	// files, sizes and times). It runs on every Get, so it must be cheap;
	// a different result makes the value stale. Nil: the value stays until
	// Reset.
	Stamp func() string
	// Kept, when set, is told about each value that became current
	// (reporting its problems once).
	Kept func(T)
}

// Loader holds the current value. The zero Loader is not usable: use New.
type Loader[T any] struct {
	o Options[T]

	// loading serialises loads; mu guards the fields below and is never
	// held while Load, Stamp or Kept runs.
	loading sync.Mutex
	mu      sync.Mutex
	val     T
	have    bool
	stamp   string
	// gen counts Resets, so a load that a Reset overtook is not kept.
	gen uint64
}

// New returns a Loader; nothing is loaded until the first Get.
func New[T any](o Options[T]) *Loader[T] {
	if o.Load == nil {
		panic("lazyload: Options.Load is required")
	}
	return &Loader[T]{o: o}
}

// Get returns the current value, loading it when there is none or its
// stamp changed.
func (l *Loader[T]) Get() T {
	stamp := l.currentStamp()
	if v, ok := l.current(stamp); ok {
		return v
	}
	l.loading.Lock()
	// Another caller may have loaded it while this one waited; the files
	// may have changed meanwhile too, so the stamp is read again.
	stamp = l.currentStamp()
	if v, ok := l.current(stamp); ok {
		l.loading.Unlock()
		return v
	}
	l.mu.Lock()
	gen := l.gen
	l.mu.Unlock()
	v := l.o.Load()
	l.mu.Lock()
	kept := l.gen == gen
	if kept {
		l.val, l.have, l.stamp = v, true, stamp
	}
	l.mu.Unlock()
	l.loading.Unlock()
	if kept && l.o.Kept != nil {
		l.o.Kept(v)
	}
	return v
}

// Reset drops the value; the next Get loads it again. A load in progress
// is not kept.
func (l *Loader[T]) Reset() {
	l.mu.Lock()
	var zero T
	l.val, l.have = zero, false
	l.gen++
	l.mu.Unlock()
}

func (l *Loader[T]) currentStamp() string {
	if l.o.Stamp == nil {
		return ""
	}
	return l.o.Stamp()
}

func (l *Loader[T]) current(stamp string) (T, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.have && l.stamp == stamp {
		return l.val, true
	}
	var zero T
	return zero, false
}
