package engine

import "sync"

// sessionLocks hands out one mutex per session id, created on first use.
// Safe for concurrent use; the zero value is ready.
type sessionLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// of returns the session's mutex (the same one on every call).
func (l *sessionLocks) of(sid string) *sync.Mutex {
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

// onceSet remembers which keys were seen; first reports a key's first
// sighting. Safe for concurrent use; the zero value is ready.
type onceSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (s *onceSet) first(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[key] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[key] = true
	return true
}
