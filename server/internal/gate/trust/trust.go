package trust

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// ActionTrustWorkspace is the notice action that asks the editor to
// offer workspace trust.
const ActionTrustWorkspace = "trustWorkspace"

// Options are what the gate needs from the engine.
type Options struct {
	Roots []string
	// Trusted is the trust at start.
	Trusted bool
	// Reset drops every trust-gated catalog, so the next use loads it
	// under the current trust.
	Reset func()
	// Report reports the gated catalogs' own problems (malformed skills,
	// command conflicts), loading them if needed.
	Report func()
	// Load loads what trust just let in instead of waiting for its first
	// use (the hooks, the MCP servers); it runs in its own goroutine.
	Load func()
	// Notice tells the user something; action names a remedy ("" none).
	Notice func(level, msg, action string)
	// Withdraw says the notices carrying action no longer hold (nil: no
	// client to tell).
	Withdraw func(action string)
	Tr       func(msg string, args ...any) string
	Log      *zap.Logger
}

// Gate holds the workspace's trust. Safe for concurrent use.
type Gate struct {
	o  Options
	mu sync.Mutex
	on bool
}

// New returns the gate at the trust of o.Trusted.
func New(o Options) *Gate {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return &Gate{o: o, on: o.Trusted}
}

// Trusted reports the workspace's current trust.
func (g *Gate) Trusted() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.on
}

// Set applies a trust change: the project configuration that trust gates
// is loaded again on next use, and what is still skipped is reported as a
// notice. Granted trust withdraws the untrusted-workspace notice and
// loads what it let in.
func (g *Gate) Set(on bool) {
	g.mu.Lock()
	changed := g.on != on
	g.on = on
	g.mu.Unlock()
	if !changed {
		return
	}
	g.o.Log.Info("workspace trust changed", zap.Bool("trusted", on))
	g.o.Reset()
	g.Report()
	if on {
		// The untrusted-workspace notice no longer holds, wherever trust
		// was granted (the notice's button, VS Code's trust editor).
		if g.o.Withdraw != nil {
			g.o.Withdraw(ActionTrustWorkspace)
		}
		go g.o.Load()
	}
}

// Report reports, for each trust-gated kind of project config, what was
// skipped or malformed. The untrusted-workspace notice names each kind
// with its files and carries the "trustWorkspace" action, so the editor
// can offer VS Code's workspace trust request beside it.
func (g *Gate) Report() {
	g.o.Report()
	if g.Trusted() {
		return
	}
	var parts []string
	for _, k := range untrustedConfig(g.o.Roots) {
		parts = append(parts, g.label(k.label)+" ("+strings.Join(k.found, ", ")+")")
	}
	if len(parts) > 0 {
		g.o.Notice("info", g.o.Tr("This workspace is not trusted, so its project configuration that can run things was not loaded: %s. Trust the workspace to use it.", strings.Join(parts, "; ")), ActionTrustWorkspace)
	}
}

// gatedKinds are the project files and folders that trust gates, by what
// they hold. Skills count only when they carry scripts; the folder is
// named either way, as the catalog reports the skills it skipped.
var gatedKinds = []struct {
	label string
	paths []string
}{
	{"hooks", []string{".govibe/hooks.json", ".github/hooks", ".claude/settings.json", ".claude/settings.local.json"}},
	{"MCP servers", []string{".govibe/mcp.json", ".vscode/mcp.json", ".mcp.json"}},
	{"custom commands", []string{".govibe/commands", ".claude/commands", ".gemini/commands", ".github/prompts"}},
	{"custom agents", []string{".govibe/agents", ".claude/agents", ".github/agents"}},
	{"skills", []string{".govibe/skills"}},
}

// label names a kind in the user's language (each literal is in the
// catalogue).
func (g *Gate) label(label string) string {
	switch label {
	case "hooks":
		return g.o.Tr("hooks")
	case "MCP servers":
		return g.o.Tr("MCP servers")
	case "custom commands":
		return g.o.Tr("custom commands")
	case "custom agents":
		return g.o.Tr("custom agents")
	case "skills":
		return g.o.Tr("skills")
	}
	return label
}

// gatedKind is one kind of gated config found in the workspace.
type gatedKind struct {
	label string
	found []string
}

// untrustedConfig lists the gated project config present in roots.
func untrustedConfig(roots []string) []gatedKind {
	var out []gatedKind
	for _, k := range gatedKinds {
		g := gatedKind{label: k.label}
		for _, r := range roots {
			for _, p := range k.paths {
				if _, err := os.Stat(filepath.Join(r, filepath.FromSlash(p))); err == nil {
					if len(roots) > 1 {
						p = filepath.Join(filepath.Base(r), p)
					}
					g.found = append(g.found, p)
				}
			}
		}
		if len(g.found) > 0 {
			out = append(out, g)
		}
	}
	return out
}
