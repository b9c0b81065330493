package netproxy

import (
	"os"
	"path/filepath"
	"sync"
)

// maxReported bounds the refused hosts one proxy remembers.
const maxReported = 20

// Ephemeral starts a proxy for one command on a socket in a fresh private
// folder. stop closes it, removes the folder and returns the hosts it
// refused, each once, in order (at most maxReported).
func Ephemeral(decide Decider) (path string, stop func() []string, err error) {
	dir, err := os.MkdirTemp("", "govibe-proxy-")
	if err != nil {
		return "", nil, err
	}
	var mu sync.Mutex
	var refused []string
	seen := map[string]bool{}
	p, err := Listen(filepath.Join(dir, "proxy.sock"), decide, func(r Refusal) {
		mu.Lock()
		defer mu.Unlock()
		if !seen[r.Host] && len(refused) < maxReported {
			seen[r.Host] = true
			refused = append(refused, r.Host)
		}
	})
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return p.Path(), func() []string {
		p.Close()
		os.RemoveAll(dir)
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), refused...)
	}, nil
}
