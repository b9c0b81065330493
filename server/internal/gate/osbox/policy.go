package osbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Access is what a sandboxed command may do to the workspace roots.
type Access int

const (
	// ReadOnly: the roots are visible but every write fails with EROFS.
	ReadOnly Access = iota
	// WorkspaceWrite: the roots are writable, except the protected paths.
	WorkspaceWrite
)

func (a Access) String() string {
	if a == WorkspaceWrite {
		return "workspace-write"
	}
	return "read-only"
}

// Policy is everything that decides what one sandboxed command may touch.
// It is plain data, so the same value yields the bubblewrap arguments, the
// Landlock rules and the macOS Seatbelt profile.
type Policy struct {
	// Roots are the workspace folders (absolute). They are always readable.
	Roots  []string
	Access Access
	// GitWrite leaves .git writable inside writable roots. Only a git
	// command a person (or their rule) approved for writing gets it.
	GitWrite bool
	// Network, when non-nil, lets the command reach the sidecar's proxy
	// (Proxy, a Unix socket) and nothing else; the proxy decides each
	// domain. Nil means no network at all.
	Network *Network
	// Home is the user's home folder; its secret files are masked.
	Home string
	// Mask lists further paths (absolute) replaced by an empty file or
	// folder: the GoVibe state folder, VS Code's storage, the user's list.
	Mask []string
	// Caches are toolchain caches kept writable in every mode, so a
	// sandboxed build is as fast as an unsandboxed one.
	Caches []string
	// MaxProcesses and MaxMemoryMB bound the command (0 = no limit).
	MaxProcesses int
	MaxMemoryMB  int
}

// Network is the way out of a sandbox that may use the network.
type Network struct {
	// Proxy is the Unix socket of the sidecar's allowlisting proxy.
	Proxy string
	// Domains is what the proxy allows, for the card and stream-json.
	Domains []string
}

// Describe says how a command ran, in the words the card and stream-json
// use: "read-only" or "workspace-write", then "no network" or
// "network: a, b".
func (p Policy) Describe() string {
	s := p.Access.String()
	if p.Network == nil || len(p.Network.Domains) == 0 {
		s += "; no network"
	} else {
		d := append([]string(nil), p.Network.Domains...)
		sort.Strings(d)
		if len(d) > 6 {
			d = append(d[:6], "…")
		}
		s += "; network: " + strings.Join(d, ", ")
	}
	return s
}

// homeSecrets are paths under the home folder that hold credentials. They
// are masked in every mode; a command never needs them to build or test.
var homeSecrets = []string{
	".ssh", ".aws", ".azure", ".config/gcloud", ".netrc", ".docker/config.json", ".kube",
	".gnupg", ".password-store", ".git-credentials", ".config/gh", ".config/hub",
	".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d/credentials.tfrc.json", ".config/git/credentials", ".local/share/keyrings",
	// VS Code and code-server keep SecretStorage, settings and GoVibe's
	// own database here.
	".config/Code", ".config/Code - OSS", ".config/VSCodium", ".vscode-server/data",
	".local/share/code-server", ".config/govibe", ".local/share/govibe",
}

// protectedNames stay read-only inside a writable root: the repository's
// configuration and hooks (code that git or an editor runs later, outside
// the sandbox) and the agents' and editors' own settings.
var protectedNames = []string{
	".git", ".govibe", ".vscode", ".claude", ".gemini", ".cursor", ".mcp.json",
	".github/hooks", ".idea", ".devcontainer",
}

// HomeSecrets returns the masked paths under home that exist.
func HomeSecrets(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, rel := range homeSecrets {
		p := filepath.Join(home, rel)
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// DefaultCaches returns the toolchain caches that exist, from the
// environment the sidecar started with, else each tool's documented
// default. It never runs the tools (that would cost a process per command).
func DefaultCaches(getenv func(string) string, home string) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	xdgCache := getenv("XDG_CACHE_HOME")
	if xdgCache == "" && home != "" {
		xdgCache = filepath.Join(home, ".cache")
	}
	gopath := getenv("GOPATH")
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	first := func(vals ...string) string {
		for _, v := range vals {
			if v != "" {
				return v
			}
		}
		return ""
	}
	join := func(base string, rest ...string) string {
		if base == "" {
			return ""
		}
		return filepath.Join(append([]string{base}, rest...)...)
	}
	cargo := first(getenv("CARGO_HOME"), join(home, ".cargo"))
	cands := []string{
		first(getenv("GOCACHE"), join(xdgCache, "go-build")),
		first(getenv("GOMODCACHE"), join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod")),
		first(getenv("npm_config_cache"), getenv("NPM_CONFIG_CACHE"), join(home, ".npm")),
		first(getenv("PIP_CACHE_DIR"), join(xdgCache, "pip")),
		join(cargo, "registry"), join(cargo, "git"),
		join(xdgCache, "yarn"), join(home, ".local", "share", "pnpm"),
		join(home, ".m2", "repository"), join(home, ".gradle", "caches"),
	}
	// Go and npm create their caches on first use; inside the sandbox that
	// first use would find the home folder read-only, so they are made
	// here, where the tool would have made them.
	for i, tool := range map[int]string{0: "go", 1: "go", 2: "npm"} {
		if cands[i] != "" && filepath.IsAbs(cands[i]) {
			cachesMade.ensure(tool, cands[i])
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if c == "" || seen[c] || !filepath.IsAbs(c) {
			continue
		}
		seen[c] = true
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			out = append(out, c)
		}
	}
	return out
}

// cachesMade is what DefaultCaches already did in this process: whether
// each tool is on PATH and which caches it made. It runs for every
// command, so the PATH search and the mkdir happen once per process and
// cache, not on every call.
var cachesMade = &madeCaches{tools: map[string]bool{}, dirs: map[string]bool{}}

type madeCaches struct {
	mu    sync.Mutex
	tools map[string]bool // tool → found on PATH
	dirs  map[string]bool // caches already made (or tried)
}

// ensure makes dir, tool's cache, the first time it is asked for, when
// tool is installed.
func (m *madeCaches) ensure(tool, dir string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dirs[dir] {
		return
	}
	found, known := m.tools[tool]
	if !known {
		_, err := exec.LookPath(tool)
		found = err == nil
		m.tools[tool] = found
	}
	if found {
		_ = os.MkdirAll(dir, 0o755)
	}
	m.dirs[dir] = true
}
