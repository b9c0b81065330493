package approval

import (
	"sort"
	"sync"
)

// sessionDomains are the domains a person allowed on a sandbox card, per
// session: they widen the proxy's allowlist for that session only, and
// are forgotten with the process (a restart asks again).
type sessionDomains struct {
	mu sync.Mutex
	m  map[string]map[string]bool
}

var approvedDomains sessionDomains

func (e *Approvals) approveDomains(sessionID string, domains []string) {
	approvedDomains.mu.Lock()
	defer approvedDomains.mu.Unlock()
	if approvedDomains.m == nil {
		approvedDomains.m = map[string]map[string]bool{}
	}
	set := approvedDomains.m[sessionID]
	if set == nil {
		set = map[string]bool{}
		approvedDomains.m[sessionID] = set
	}
	for _, d := range domains {
		set[d] = true
	}
}

// ApprovedDomains returns the domains allowed on a card in this session.
func ApprovedDomains(sessionID string) []string {
	approvedDomains.mu.Lock()
	defer approvedDomains.mu.Unlock()
	var out []string
	for d := range approvedDomains.m[sessionID] {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
