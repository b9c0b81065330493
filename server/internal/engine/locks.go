package engine

import "sync"

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
