package sessionstate

import "sync"

// Locks hands out one mutex per session id, created on first use, for
// the read-change-persist of a session's state (the plan, the usage).
// Safe for concurrent use; the zero value is ready.
type Locks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// Of returns the session's mutex (the same one on every call).
func (l *Locks) Of(sid string) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.locks == nil {
		l.locks = map[string]*sync.Mutex{}
	}
	m := l.locks[sid]
	if m == nil {
		m = &sync.Mutex{}
		l.locks[sid] = m
	}
	return m
}
