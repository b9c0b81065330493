package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// State of one server, as the status view shows it.
type State string

const (
	StateIdle       State = "idle" // configured, not started yet (lazy)
	StateConnecting State = "connecting"
	StateConnected  State = "connected"
	StateFailed     State = "failed"
	StateDisabled   State = "disabled"
)

// Status is one server's row in the status view.
type Status struct {
	Name        string `json:"name"`
	State       State  `json:"state"`
	Kind        string `json:"kind"`
	Source      string `json:"source"`
	Tools       int    `json:"tools"`
	SchemaChars int    `json:"schemaChars"` // size of the tool schemas offered
	Error       string `json:"error,omitempty"`
	StderrTail  string `json:"stderrTail,omitempty"`
	Restarts    int    `json:"restarts"`
	// NeedsInputs are the prompted inputs the server waits for.
	NeedsInputs []Input `json:"needsInputs,omitempty"`
}

// Options configure a Manager.
type Options struct {
	Log *zap.Logger
	// Env is the environment for stdio servers, already scrubbed of the
	// sidecar's secrets; a server's own env entries are added to it.
	Env []string
	Cwd string
	// MaxBackoff caps the wait between restarts of a crashed server.
	MaxBackoff time.Duration
	// ImageDir keeps the images tools return, for the chat (images.go);
	// empty: images become notes only.
	ImageDir string
	// Roots are the workspace folders, offered to servers as the
	// client's roots (roots/list); SetRoots changes them.
	Roots []string
}

// Manager owns the connections. Safe for concurrent use: each server has
// its own lock, so a slow server never blocks calls to another.
type Manager struct {
	opts    Options
	client  *mcp.Client
	servers map[string]*server
	order   []string

	rootsMu sync.Mutex
	roots   []string // the root URIs offered now
}

type server struct {
	cfg Config

	mu       sync.Mutex
	state    State
	session  *mcp.ClientSession
	tools    []*mcp.Tool
	prompts  []*mcp.Prompt
	err      string
	stderr   *tail
	restarts int
	// nextTry is when a failed server may be tried again (backoff).
	nextTry time.Time
	backoff time.Duration
}

// Config aliases ServerConfig inside the manager.
type Config = ServerConfig

// New builds a manager; nothing starts until a server is needed.
func New(cfgs []ServerConfig, o Options) *Manager {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 30 * time.Second
	}
	m := &Manager{opts: o, servers: map[string]*server{},
		client: mcp.NewClient(&mcp.Implementation{Name: "govibe", Version: "1"}, nil)}
	m.SetRoots(o.Roots)
	for _, c := range cfgs {
		s := &server{cfg: c, state: StateIdle, stderr: newTail(4096)}
		if c.Disabled {
			s.state = StateDisabled
		}
		m.servers[c.Name] = s
		m.order = append(m.order, c.Name)
	}
	sort.Strings(m.order)
	return m
}

// Start connects every enabled server that is not connected, in parallel,
// and waits for all of them (each bounded by its timeout).
func (m *Manager) Start(ctx context.Context) {
	var wg sync.WaitGroup
	for _, n := range m.order {
		s := m.servers[n]
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					s.fail(fmt.Sprintf("internal error: %v", r))
				}
			}()
			m.ensure(ctx, s)
		}()
	}
	wg.Wait()
}

// ensure connects s if it is idle, or failed and past its backoff.
func (m *Manager) ensure(ctx context.Context, s *server) (*mcp.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case StateConnected:
		return s.session, nil
	case StateDisabled:
		return nil, fmt.Errorf("the MCP server %s is disabled", s.cfg.Name)
	case StateFailed:
		if time.Now().Before(s.nextTry) {
			return nil, fmt.Errorf("the MCP server %s failed (%s); retrying in %s", s.cfg.Name, s.err, time.Until(s.nextTry).Round(time.Second))
		}
	}
	if len(s.cfg.NeedsInputs) > 0 {
		s.state, s.err = StateFailed, "needs inputs: "+strings.Join(s.cfg.NeedsInputs, ", ")
		s.nextTry = time.Now().Add(time.Hour)
		return nil, errors.New(s.err)
	}
	s.state = StateConnecting
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	// The connection outlives this call: the legacy SSE transport reads its
	// event stream under the context it connected with, so connecting
	// under cctx closed the stream as soon as ensure returned (the tools
	// were listed, every call then failed). It gets a context of its own,
	// ended by cctx only while connecting, and by the session's end after.
	life, endLife := context.WithCancel(context.WithoutCancel(ctx))
	stopWatch := context.AfterFunc(cctx, endLife)
	sess, err := m.connect(life, s)
	if err == nil {
		var tools *mcp.ListToolsResult
		tools, err = sess.ListTools(cctx, nil)
		if err == nil {
			s.tools = tools.Tools
			if pr, perr := sess.ListPrompts(cctx, nil); perr == nil {
				s.prompts = pr.Prompts
			} else {
				s.prompts = nil
			}
		} else {
			sess.Close()
		}
	}
	if err == nil && !stopWatch() {
		// cctx ended in the meantime and took the connection with it.
		sess.Close()
		err = fmt.Errorf("connecting took longer than %s", s.cfg.Timeout)
	}
	if err != nil {
		endLife()
		if s.backoff == 0 {
			s.backoff = time.Second
		} else if s.backoff *= 2; s.backoff > m.opts.MaxBackoff {
			s.backoff = m.opts.MaxBackoff
		}
		s.state, s.err, s.nextTry = StateFailed, err.Error(), time.Now().Add(s.backoff)
		m.opts.Log.Warn("mcp server failed", zap.String("server", s.cfg.Name), zap.Error(err), zap.String("stderr", s.stderr.String()))
		return nil, fmt.Errorf("the MCP server %s failed to start: %v", s.cfg.Name, err)
	}
	s.session, s.state, s.err, s.backoff = sess, StateConnected, "", 0
	m.opts.Log.Info("mcp server connected", zap.String("server", s.cfg.Name), zap.Int("tools", len(s.tools)))
	// When the connection ends (the process crashed), mark it so the next
	// use reconnects with backoff.
	go func() {
		_ = sess.Wait()
		endLife()
		s.mu.Lock()
		if s.session == sess && s.state == StateConnected {
			s.state, s.err, s.session = StateFailed, "the server exited", nil
			s.restarts++
			s.nextTry = time.Now().Add(time.Second)
			m.opts.Log.Warn("mcp server exited", zap.String("server", s.cfg.Name), zap.String("stderr", s.stderr.String()))
		}
		s.mu.Unlock()
	}()
	return sess, nil
}

func (m *Manager) connect(ctx context.Context, s *server) (*mcp.ClientSession, error) {
	var t mcp.Transport
	switch s.cfg.Kind {
	case KindStdio:
		cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
		cmd.Env = append([]string{}, m.opts.Env...)
		if cmd.Env == nil {
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
		}
		for k, v := range s.cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Dir = m.opts.Cwd
		if s.cfg.Cwd != "" {
			cmd.Dir = s.cfg.Cwd
		}
		cmd.Stderr = s.stderr
		setGroup(cmd)
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	case KindHTTP:
		t = &mcp.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: headerClient(s.cfg.Headers), MaxRetries: -1, DisableStandaloneSSE: true}
	case KindSSE:
		t = &mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: headerClient(s.cfg.Headers)}
	default:
		return nil, fmt.Errorf("unknown transport %q", s.cfg.Kind)
	}
	return m.client.Connect(ctx, t, nil)
}

func (s *server) fail(msg string) {
	s.mu.Lock()
	s.state, s.err = StateFailed, msg
	s.mu.Unlock()
}

// headerClient adds the configured headers to every request.
func headerClient(h map[string]string) *http.Client {
	if len(h) == 0 {
		return &http.Client{}
	}
	return &http.Client{Transport: headerRT{h: h, next: http.DefaultTransport}}
}

type headerRT struct {
	h    map[string]string
	next http.RoundTripper
}

func (r headerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range r.h {
		req.Header.Set(k, v)
	}
	return r.next.RoundTrip(req)
}

// Statuses lists every server, sorted by name.
func (m *Manager) Statuses() []Status {
	out := make([]Status, 0, len(m.order))
	for _, n := range m.order {
		s := m.servers[n]
		s.mu.Lock()
		st := Status{Name: n, State: s.state, Kind: s.cfg.Kind, Source: s.cfg.Source, Error: s.err, Restarts: s.restarts, NeedsInputs: s.cfg.Inputs}
		for _, t := range s.tools {
			if s.cfg.allowed(t.Name) {
				st.Tools++
				st.SchemaChars += schemaChars(t)
			}
		}
		if s.state == StateFailed {
			st.StderrTail = s.stderr.String()
		}
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// SetEnabled enables or disables a server; disabling closes it.
func (m *Manager) SetEnabled(name string, on bool) error {
	s, ok := m.servers[name]
	if !ok {
		return fmt.Errorf("no MCP server named %q", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !on {
		if s.session != nil {
			s.session.Close()
		}
		s.session, s.state = nil, StateDisabled
		return nil
	}
	if s.state == StateDisabled {
		s.state, s.backoff, s.nextTry = StateIdle, 0, time.Time{}
	}
	return nil
}

// Connect starts one server now if it is idle (just enabled, or never
// started); a connected one is left as it is. Its error is also in its
// status.
func (m *Manager) Connect(ctx context.Context, name string) error {
	s, ok := m.servers[name]
	if !ok {
		return fmt.Errorf("no MCP server named %q", name)
	}
	_, err := m.ensure(ctx, s)
	return err
}

// Restart closes a server and connects it again now.
func (m *Manager) Restart(ctx context.Context, name string) error {
	s, ok := m.servers[name]
	if !ok {
		return fmt.Errorf("no MCP server named %q", name)
	}
	s.mu.Lock()
	if s.session != nil {
		s.session.Close()
	}
	s.session, s.state, s.backoff, s.nextTry = nil, StateIdle, 0, time.Time{}
	s.mu.Unlock()
	_, err := m.ensure(ctx, s)
	return err
}

// Close stops every server.
func (m *Manager) Close() {
	for _, s := range m.servers {
		s.mu.Lock()
		if s.session != nil {
			s.session.Close()
			s.session = nil
		}
		if s.state == StateConnected {
			s.state = StateIdle
		}
		s.mu.Unlock()
	}
}

// tail keeps the last bytes written (a server's stderr).
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(n int) *tail { return &tail{max: n} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
