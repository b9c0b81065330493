package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/host/config"
)

// SandboxGrant is what an approval lets one command do inside the OS
// sandbox. The zero value is the read-only sandbox with no network.
type SandboxGrant struct {
	Write    bool // the workspace roots are writable
	Network  bool // the allowlisted domains through the proxy
	GitWrite bool // .git is writable (an approved git command)
	// Outside runs the command unconfined: only a person grants it, for
	// one command, after the sandbox denied something.
	Outside bool
}

// SandboxEnv is the OS sandbox as the shell tools see it. nil (or a
// Status that is not Available) means no sandbox: the approval layer then
// makes every command ask, and commands run unconfined.
type SandboxEnv struct {
	Status       osbox.Status
	Home         string
	Caches       []string
	Mask         []string
	MaxProcesses int
	MaxMemoryMB  int
	// Proxy starts the allowlisting proxy for one command; nil means no
	// network can be granted. It returns the socket, a function that
	// stops it and returns the domains it refused.
	Proxy func(allow bool) (socket string, stop func() []string, err error)
	// Domains lists what an approved command may reach, for the card.
	Domains func() []string
}

// On reports whether commands run sandboxed.
func (s *SandboxEnv) On() bool { return s != nil && s.Status.Available() }

// Policy builds the Policy for one command under grant g (no network:
// the caller attaches the proxy).
func (s *SandboxEnv) Policy(roots []string, g SandboxGrant) osbox.Policy { return s.policy(roots, g) }

func (s *SandboxEnv) policy(roots []string, g SandboxGrant) osbox.Policy {
	p := osbox.Policy{Roots: roots, Home: s.Home, Caches: s.Caches, Mask: s.Mask,
		MaxProcesses: s.MaxProcesses, MaxMemoryMB: s.MaxMemoryMB, GitWrite: g.GitWrite}
	if g.Write {
		p.Access = osbox.WorkspaceWrite
	}
	return p
}

// Denial is what the sandbox refused a command that failed, in the words
// the model and the card use.
type Denial struct {
	// Paths the command could not write (read-only file system).
	Paths []string `json:"paths,omitempty"`
	// Write is set when a write was refused, even if no path was named.
	Write bool `json:"write,omitempty"`
	// Domains the proxy refused; Network is set when the network was
	// wanted at all (a refused domain, or a failed name lookup).
	Domains []string `json:"domains,omitempty"`
	Network bool     `json:"network,omitempty"`
	// Removed are protected paths the command created, removed after it.
	Removed []string `json:"removed,omitempty"`
}

func (d Denial) Empty() bool { return !d.Write && !d.Network && len(d.Removed) == 0 }

// erofsPath finds the path in the usual messages for a refused write:
// "touch: cannot touch 'x': Read-only file system",
// "bash: line 1: x: Read-only file system", "open x: read-only file system",
// and Python's "[Errno 30] Read-only file system: 'x'".
var erofsPath = regexp.MustCompile(`(?i)(?:'([^'\n]+)'|"([^"\n]+)"|([^\s:'"]+)):\s*read-only file system|read-only file system:\s*(?:'([^'\n]+)'|"([^"\n]+)")`)

// hostInFailure finds the host a client names when its lookup failed:
// curl and git ("Could not resolve host: x"), Node ("getaddrinfo
// ENOTFOUND x"), Go ("dial tcp: lookup x"), pip and requests ("Failed to
// resolve 'x'"), wget ("unable to resolve host address 'x'").
var hostInFailure = regexp.MustCompile(`(?i)(?:could not resolve host:?|ENOTFOUND|EAI_AGAIN|dial tcp: lookup|failed to resolve|unable to resolve host address|resolving) '?"?\[?([a-z0-9][a-z0-9.-]*\.[a-z]{2,})`)

// netFailure are messages of clients that found no network at all.
var netFailure = regexp.MustCompile(`(?i)(could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|no such host|getaddrinfo|ENOTFOUND|EAI_AGAIN|failed to resolve|connection refused)`)

// findDenial reads what the sandbox refused from a failed command's output
// and the proxy's refusals. Only what the sandbox actually withheld under
// grant g counts: a read-only file system under a write grant is not ours.
func findDenial(out string, g SandboxGrant, refused, removed []string) Denial {
	var d Denial
	if !g.Write && strings.Contains(strings.ToLower(out), "read-only file system") {
		d.Write = true
		seen := map[string]bool{}
		for _, m := range erofsPath.FindAllStringSubmatch(out, 8) {
			p := m[1] + m[2] + m[3] + m[4] + m[5]
			if p != "" && !seen[p] {
				seen[p] = true
				d.Paths = append(d.Paths, p)
			}
		}
	}
	if len(refused) > 0 {
		d.Network, d.Domains = true, refused
	} else if !g.Network && netFailure.MatchString(out) {
		d.Network = true
		seen := map[string]bool{}
		for _, m := range hostInFailure.FindAllStringSubmatch(out, 8) {
			if h := strings.ToLower(m[1]); !seen[h] {
				seen[h] = true
				d.Domains = append(d.Domains, h)
			}
		}
	}
	d.Removed = removed
	return d
}

// explain words a denial for the model: what was denied, that it was the
// sandbox, and what the person can grant.
func (d Denial) explain(display func(string) string) string {
	var b strings.Builder
	b.WriteString("The OS sandbox denied this command:")
	if d.Write {
		if len(d.Paths) > 0 {
			fmt.Fprintf(&b, " writing %s (the workspace was read-only for this command);", strings.Join(d.Paths, ", "))
		} else {
			b.WriteString(" a write (the workspace was read-only for this command);")
		}
	}
	if len(d.Domains) > 0 {
		fmt.Fprintf(&b, " network access to %s (not in the allowed domains);", strings.Join(d.Domains, ", "))
	} else if d.Network {
		b.WriteString(" network access (this command had none);")
	}
	for _, r := range d.Removed {
		fmt.Fprintf(&b, " creating %s, a protected path, which was removed after it;", display(r))
	}
	out := strings.TrimSuffix(b.String(), ";") + "."
	if d.Write || d.Network {
		out += " This is not a bug in the command. Do not work around the sandbox; if the command must write or reach the network, the user can allow it when asked (run it again through run_shell_command)."
	}
	return out
}

// expandHome resolves ~/ in a user's mask entry.
func expandHome(p, home string) string {
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	return p
}

// SandboxFromSettings is the sandbox the user's sandbox.* settings ask for
// on this machine, nil when they turned it off: the one assembly the
// turn's shell tools and the reconcile auditor both run commands in.
func SandboxFromSettings(s config.SandboxSettings) *SandboxEnv {
	if !s.Enabled {
		return nil
	}
	return NewSandboxEnv(osbox.Detect(), s.Mask, s.MaxProcesses, s.MaxMemoryMB)
}

// NewSandboxEnv builds the sandbox view from the user's settings.
func NewSandboxEnv(st osbox.Status, mask []string, maxProcs, maxMemMB int) *SandboxEnv {
	home, _ := os.UserHomeDir()
	s := &SandboxEnv{Status: st, Home: home, Caches: osbox.DefaultCaches(nil, home), MaxProcesses: maxProcs, MaxMemoryMB: maxMemMB}
	for _, m := range mask {
		if m = expandHome(strings.TrimSpace(m), home); filepath.IsAbs(m) {
			s.Mask = append(s.Mask, m)
		}
	}
	return s
}

// widens reports whether g grants something before did not: only then is a
// denied command worth running again.
func widens(g, before SandboxGrant) bool {
	return g.Write && !before.Write || g.Network && !before.Network || g.GitWrite && !before.GitWrite || g.Outside && !before.Outside
}
