package mcpclient

import (
	"fmt"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// Servers is the MCP capability of one engine: one Manager, from
// ~/.govibe/mcp.json and the project's .govibe/mcp.json, .vscode/mcp.json
// and .mcp.json (project files only in a trusted workspace), built on
// first use and again after Reset (a trust change, new inputs). Servers
// start lazily (the first run that lists tools) and in parallel. Safe for
// concurrent use.
type Servers struct {
	o ServersOptions

	mu      sync.Mutex
	m       *Manager
	warned  bool // the schema budget warning was shown for this manager
	skipped []string
	// inputs are the editor's values for ${input:id} (from SecretStorage):
	// in memory only, substituted into the one server config that names
	// them, never into the environment of anything else.
	inputs map[string]string
}

// ServersOptions are what Servers needs from the engine.
type ServersOptions struct {
	Home  string
	Roots []string
	// StateDir is the storage directory; tool images go to its
	// mcp-images/ folder (empty: none are kept).
	StateDir string
	// Trusted is the workspace's current trust.
	Trusted func() bool
	// Env is the environment for stdio servers, scrubbed of secrets; it
	// is read each time a manager is built.
	Env func() []string
	// ContextWindow is the main model's window in tokens (0 unknown).
	ContextWindow func() int
	// DisplayPath shows a skipped file relative to its workspace root.
	DisplayPath func(string) string
	// Notice tells the user about configuration problems and the schema
	// budget; Tr translates.
	Notice func(level, msg string)
	Tr     func(msg string, args ...any) string
	Log    *zap.Logger
}

// NewServers returns the capability; nothing is loaded until first use.
func NewServers(o ServersOptions) *Servers {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return &Servers{o: o}
}

// Manager returns the manager, building it on first use.
func (s *Servers) Manager() *Manager {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m != nil {
		return s.m
	}
	inputs := s.inputs
	cfgs, problems, skipped := Load(Sources(s.o.Home, s.o.Roots), s.o.Trusted(), func(id string) (string, bool) {
		v, ok := inputs[id]
		return v, ok
	})
	for _, p := range problems {
		s.o.Log.Warn("MCP configuration", zap.String("source", p.Path), zap.String("problem", p.Message))
		s.o.Notice("warning", s.o.Tr("MCP server not loaded: %s", p.Error()))
	}
	s.skipped = skipped
	s.m = New(cfgs, Options{Log: s.o.Log.Named("mcp"), Env: s.o.Env(), Cwd: s.o.Roots[0], ImageDir: imageDirFor(s.o.StateDir), Roots: s.o.Roots})
	s.warned = false
	return s.m
}

// Reset stops the servers; the next use loads the configuration again.
func (s *Servers) Reset() {
	s.mu.Lock()
	m := s.m
	s.m = nil
	s.mu.Unlock()
	if m != nil {
		go m.Close()
	}
}

// Close stops the servers and waits for them.
func (s *Servers) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m != nil {
		s.m.Close()
	}
}

// SetInputs adds values for ${input:id} and reloads the servers, so those
// that waited for them start with them.
func (s *Servers) SetInputs(values map[string]string) {
	s.mu.Lock()
	next := map[string]string{}
	for k, v := range s.inputs {
		next[k] = v
	}
	for k, v := range values {
		next[k] = v
	}
	s.inputs = next
	s.mu.Unlock()
	s.Reset()
}

// Skipped lists the project MCP config files trust kept from loading,
// relative to their workspace root.
func (s *Servers) Skipped() []string {
	s.Manager()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.skipped))
	for i, p := range s.skipped {
		out[i] = s.o.DisplayPath(p) // relative to its root, as the notice says it
	}
	return out
}

// OverSchemaBudget reports whether m's tool schemas take more than 15% of
// the model's context window, and warns the user once per manager.
func (s *Servers) OverSchemaBudget(m *Manager) bool {
	chars := 0
	var per []string
	for _, st := range m.Statuses() {
		chars += st.SchemaChars
		if st.SchemaChars > 0 {
			per = append(per, fmt.Sprintf("%s ≈%d", st.Name, st.SchemaChars/4))
		}
	}
	window := s.o.ContextWindow()
	if window <= 0 || chars/4*100 <= window*15 {
		return false
	}
	s.mu.Lock()
	warned := s.warned
	s.warned = true
	s.mu.Unlock()
	if !warned {
		s.o.Notice("warning", s.o.Tr("MCP tool definitions take about %d tokens, more than 15%% of the %d-token context window (%s), so the model finds them with a search tool instead of seeing them all. Disable servers you do not need.", chars/4, window, strings.Join(per, ", ")))
	}
	return true
}
