package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
)

// message is any JSON-RPC 2.0 object on the wire. The same type is decoded
// for the sidecar's replies and for the echo reference, so both sides of
// every ratio pay the same client-side decoding cost.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *jsonrpc2.ID    `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc2.Error `json:"error,omitempty"`
}

func request(id uint64, method string, params any) message {
	m := message{JSONRPC: "2.0", ID: &jsonrpc2.ID{Num: id}, Method: method}
	if params != nil {
		m.Params = mustJSON(params)
	}
	return m
}

func notification(method string, params any) message {
	return message{JSONRPC: "2.0", Method: method, Params: mustJSON(params)}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// child is a process spoken to with LSP framing over its stdin/stdout,
// through jsonrpc2's own codec so the framing is the library's, not ours.
//
// Concurrency: Send may be called from any goroutine (the buffered stream
// serialises writes); Recv must only be called from one goroutine at a time.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stream jsonrpc2.ObjectStream
	stderr *tailBuffer
	nextID uint64
	// echo marks a reference child that sends every message back: the
	// echoed request is then the awaited answer, and nothing is answered.
	echo bool
}

// startChild starts name with args in dir.
func startChild(dir, name string, args ...string) (*child, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	tail := &tailBuffer{max: 8 << 10}
	cmd.Stderr = tail
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &child{cmd: cmd, stdin: in, stderr: tail,
		stream: jsonrpc2.NewBufferedStream(&pipeRWC{r: out, w: in}, jsonrpc2.VSCodeObjectCodec{})}, nil
}

func (c *child) Send(m message) error { return c.stream.WriteObject(m) }

func (c *child) Recv(m *message) error {
	*m = message{}
	return c.stream.ReadObject(m)
}

// Call sends a request and reads until the message carrying its id comes
// back, answering the sidecar's own requests on the way. For the echo
// reference that message is the request itself.
func (c *child) Call(method string, params any) (message, error) {
	c.nextID++
	req := request(c.nextID, method, params)
	if err := c.Send(req); err != nil {
		return message{}, err
	}
	return c.awaitID(*req.ID)
}

func (c *child) awaitID(id jsonrpc2.ID) (message, error) {
	var m message
	for {
		if err := c.Recv(&m); err != nil {
			return message{}, c.wrap(err)
		}
		if m.ID != nil && *m.ID == id && (m.Method == "" || c.echo) {
			return m, nil
		}
		if m.ID != nil && m.Method != "" && !c.echo {
			if err := c.answer(m); err != nil {
				return message{}, err
			}
		}
	}
}

// answer replies to a server→client request the way an editor with no open
// buffers and no diagnostics would.
func (c *child) answer(m message) error {
	reply := message{JSONRPC: "2.0", ID: m.ID}
	switch m.Method {
	case "editor/dirtyBuffer":
		reply.Result = mustJSON(protocol.DirtyBufferResult{})
	case "editor/diagnostics":
		reply.Result = mustJSON(protocol.DiagnosticsResult{})
	default:
		reply.Error = &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "rpcbench does not answer " + m.Method}
	}
	return c.Send(reply)
}

func (c *child) wrap(err error) error {
	if s := c.stderr.String(); s != "" {
		return fmt.Errorf("%w; child stderr:\n%s", err, s)
	}
	return err
}

// Close ends the child: stdin is closed (the sidecar treats EOF as the editor
// going away), and a child that has not exited after grace is killed.
func (c *child) Close(grace time.Duration) error {
	_ = c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		_ = c.cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not exit within %s of its stdin closing; killed", c.cmd.Path, grace)
	}
}

// shutdown is the polite LSP ending: shutdown, exit, then wait for the
// process to leave on its own before closing its stdin. Closing stdin right
// after exit would race the sidecar's handling of exit with its
// editor-went-away path, which exits 1.
func (c *child) shutdown() error {
	if _, err := c.Call("shutdown", nil); err != nil {
		_ = c.Close(time.Second)
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := c.Send(message{JSONRPC: "2.0", Method: "exit"}); err != nil {
		_ = c.Close(time.Second)
		return fmt.Errorf("exit: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		_ = c.stdin.Close()
	case <-time.After(5 * time.Second):
		_ = c.stdin.Close()
		_ = c.cmd.Process.Kill()
		<-done
		return fmt.Errorf("sidecar still running 5s after shutdown+exit; killed; stderr:\n%s", c.stderr.String())
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return fmt.Errorf("sidecar exited with %v after shutdown+exit; stderr:\n%s", exitErr, c.stderr.String())
	}
	return err
}

type pipeRWC struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p *pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipeRWC) Close() error {
	err := p.w.Close()
	_ = p.r.Close()
	return err
}

// tailBuffer keeps the last max bytes a child wrote to stderr, for error
// messages, without growing with a chatty log.
//
// Concurrency: Write (from exec's copying goroutine) and String may run
// concurrently; mu guards buf.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
