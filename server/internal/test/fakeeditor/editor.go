// Package fakeeditor is a fake VS Code extension for testing the sidecar
// without VS Code, in the spirit of gopls' integration tests: it speaks real
// JSON-RPC with Content-Length framing over pipes or a child's stdio,
// records every notification, answers server→client requests, and lets
// tests await expectations on what it has seen.
package fakeeditor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/rpc/server"
	"github.com/govibe/govibe/server/internal/rpc/wire"
)

// Editor is one fake extension connected to one sidecar. Safe for
// concurrent use: the connection's read loop records notifications under
// mu while tests read them.
type Editor struct {
	t    testing.TB
	Conn *jsonrpc2.Conn

	mu       sync.Mutex
	notes    []Notification
	changed  chan struct{}
	handlers map[string]func(params json.RawMessage) (any, error)

	// Files is what ApplyEdit wrote, for assertions.
	Workspace string
	StateDir  string
	cmd       *exec.Cmd
	stderr    *strings.Builder
	raw       io.Writer
}

// Notification is one server→client notification.
type Notification struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

// Options configure a connection.
type Options struct {
	Workspace string
	StateDir  string
	Settings  map[string]any
	// WorkspaceSettings are what the workspace set (protocol.Settings.Workspace).
	WorkspaceSettings map[string]any
	// Untrusted initializes as an untrusted workspace.
	Untrusted bool
	APIKey    string
	// Binary runs the sidecar as a child process over real stdio; empty
	// serves it in-process over pipes.
	Binary string
	// ApplyEdit declares the client capability.
	ApplyEdit bool
	// TerminalOutput declares that the editor answers
	// editor/terminalOutput (register the answer with OnRequest).
	TerminalOutput bool
	// MoreFolders are further workspace roots after Workspace (a
	// multi-root workspace).
	MoreFolders []string
}

// Connect starts a sidecar, connects, and initializes it.
func Connect(t testing.TB, o Options) *Editor {
	t.Helper()
	e := New(t, o)
	res, err := e.Initialize(context.Background(), o, protocol.Version)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, e.Stderr())
	}
	if res.ProtocolVersion != protocol.Version {
		t.Fatalf("server protocol %d", res.ProtocolVersion)
	}
	return e
}

// New starts a sidecar and connects without initializing.
func New(t testing.TB, o Options) *Editor {
	t.Helper()
	if o.Workspace == "" {
		o.Workspace = t.TempDir()
	}
	if o.StateDir == "" {
		o.StateDir = t.TempDir()
	}
	e := &Editor{t: t, changed: make(chan struct{}), handlers: map[string]func(json.RawMessage) (any, error){},
		Workspace: o.Workspace, StateDir: o.StateDir, stderr: &strings.Builder{}}
	var rwc io.ReadWriteCloser
	if o.Binary != "" {
		cmd := exec.Command(o.Binary, "serve", "--stdio")
		cmd.Env = append(os.Environ(), "GOVIBE_LOG_DIR="+filepath.Join(o.StateDir, "logs"))
		cmd.Stderr = &lockedWriter{b: e.stderr, mu: &e.mu}
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		e.cmd = cmd
		e.raw = in
		rwc = &pipeRWC{r: out, w: in}
		t.Cleanup(func() {
			_ = in.Close()
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		})
	} else {
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		log := logging.New(logging.Options{Level: "debug", Stderr: &syncWriter{&lockedWriter{b: e.stderr, mu: &e.mu}}})
		exitCh := make(chan int, 1)
		lazy := wire.NewLazy()
		srv := server.New(protocol.NewClient(lazy), log, func(code int) { exitCh <- code })
		conn := wire.Serve(context.Background(), &pipeRWC{r: sr, w: sw}, func(ctx context.Context, m string, p json.RawMessage) (any, error) {
			return protocol.Dispatch(ctx, srv, m, p)
		}, log.Logger.WithOptions(zap.IncreaseLevel(zap.InfoLevel)))
		lazy.Set(conn)
		e.raw = cw
		rwc = &pipeRWC{r: cr, w: cw}
		t.Cleanup(func() {
			_ = cw.Close()
			_ = cr.Close()
			srv.Close()
		})
	}
	e.Conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), e)
	t.Cleanup(func() { _ = e.Conn.Close() })
	e.OnRequest("editor/dirtyBuffer", func(json.RawMessage) (any, error) { return protocol.DirtyBufferResult{}, nil })
	e.OnRequest("editor/diagnostics", func(json.RawMessage) (any, error) { return protocol.DiagnosticsResult{}, nil })
	return e
}

// Initialize sends initialize with the given protocol version.
func (e *Editor) Initialize(ctx context.Context, o Options, version int) (*protocol.InitializeResult, error) {
	settings := map[string]any{"confirmChanges": true}
	for k, v := range o.Settings {
		settings[k] = v
	}
	folders := []protocol.WorkspaceFolder{{Name: "ws", Path: e.Workspace}}
	for i, f := range o.MoreFolders {
		folders = append(folders, protocol.WorkspaceFolder{Name: fmt.Sprintf("ws%d", i+2), Path: f})
	}
	p := protocol.InitializeParams{
		ProtocolVersion:  version,
		ClientInfo:       protocol.ClientInfo{Name: "fakeeditor", Version: "test"},
		WorkspaceFolders: folders,
		StorageDir:       e.StateDir,
		Locale:           "en",
		Settings:         protocol.Settings{Values: settings, APIKeys: map[string]string{"": o.APIKey}, Workspace: o.WorkspaceSettings},
		Capabilities:     protocol.ClientCapabilities{ApplyEdit: o.ApplyEdit, DirtyBuffer: true, Diagnostics: true, Confirm: true, TerminalOutput: o.TerminalOutput},
		Trusted:          !o.Untrusted,
		Host:             protocol.HostInfo{OS: "linux", Shell: "bash"},
	}
	var res protocol.InitializeResult
	if err := e.Conn.Call(ctx, "initialize", p, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// OnRequest answers a server→client request method.
func (e *Editor) OnRequest(method string, f func(params json.RawMessage) (any, error)) {
	e.mu.Lock()
	e.handlers[method] = f
	e.mu.Unlock()
}

func (e *Editor) record(n Notification) {
	e.mu.Lock()
	e.notes = append(e.notes, n)
	ch := e.changed
	e.changed = make(chan struct{})
	e.mu.Unlock()
	close(ch)
}

// Call sends a request.
func (e *Editor) Call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.Conn.Call(ctx, method, params, result)
}

// Notifications returns what was recorded for a method ("" = all).
func (e *Editor) Notifications(method string) []Notification {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Notification
	for _, n := range e.notes {
		if method == "" || n.Method == method {
			out = append(out, n)
		}
	}
	return out
}

// Events decodes the recorded chat/event notifications of a session.
func (e *Editor) Events(sessionID string) []protocol.ChatEvent {
	var out []protocol.ChatEvent
	for _, n := range e.Notifications("chat/event") {
		var ev protocol.ChatEvent
		if json.Unmarshal(n.Params, &ev) == nil && (sessionID == "" || ev.SessionID == sessionID) {
			out = append(out, ev)
		}
	}
	return out
}

// Await waits until cond holds over the recorded notifications.
func (e *Editor) Await(what string, timeout time.Duration, cond func(e *Editor) bool) {
	e.t.Helper()
	deadline := time.After(timeout)
	for {
		e.mu.Lock()
		ch := e.changed
		e.mu.Unlock()
		if cond(e) {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			e.t.Fatalf("timed out after %v waiting for %s\nsidecar stderr:\n%s", timeout, what, e.Stderr())
		}
	}
}

// AwaitTurnFinished waits for a session's turnFinished and returns it.
func (e *Editor) AwaitTurnFinished(sessionID, turnID string, timeout time.Duration) protocol.ChatEvent {
	e.t.Helper()
	var fin protocol.ChatEvent
	e.Await("turnFinished", timeout, func(e *Editor) bool {
		for _, ev := range e.Events(sessionID) {
			if ev.Kind == kinds.TurnFinished && (turnID == "" || ev.TurnID == turnID) {
				fin = ev
				return true
			}
		}
		return false
	})
	return fin
}

// Text joins the text deltas of a turn, honouring retry events (which
// discard what streamed before them).
func (e *Editor) Text(sessionID, turnID string) string {
	var b strings.Builder
	for _, ev := range e.Events(sessionID) {
		if turnID != "" && ev.TurnID != turnID {
			continue
		}
		switch ev.Kind {
		case kinds.TextDelta:
			b.WriteString(ev.Text)
		case kinds.Retry:
			b.Reset()
		}
	}
	return b.String()
}

// RawWrite writes bytes straight onto the wire, bypassing the codec, to
// test malformed input. Use it only while no request is in flight.
func (e *Editor) RawWrite(b []byte) error {
	_, err := e.raw.Write(b)
	return err
}

// Stderr is the sidecar's log output.
func (e *Editor) Stderr() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stderr.String()
}

// Process is the sidecar child process, when running a binary.
func (e *Editor) Process() *os.Process {
	if e.cmd == nil {
		return nil
	}
	return e.cmd.Process
}

func (e *Editor) String() string { return fmt.Sprintf("fakeeditor(%s)", e.Workspace) }
