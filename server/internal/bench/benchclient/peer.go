package benchclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
)

// Message is any JSON-RPC 2.0 object on the wire. The same type is decoded
// for the sidecar's replies and for an echo reference, so both sides of a
// ratio pay the same client-side decoding cost.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *jsonrpc2.ID    `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc2.Error `json:"error,omitempty"`
}

// Request is a request with id; nil params are left out.
func Request(id uint64, method string, params any) Message {
	m := Message{JSONRPC: "2.0", ID: &jsonrpc2.ID{Num: id}, Method: method}
	if params != nil {
		m.Params = MustJSON(params)
	}
	return m
}

// Notification is a message without an id.
func Notification(method string, params any) Message {
	return Message{JSONRPC: "2.0", Method: method, Params: MustJSON(params)}
}

// MustJSON encodes v, which the benchmarks build themselves.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Peer is a child spoken to synchronously: a call reads until its reply,
// answering the child's own requests on the way.
//
// Concurrency: Send may be called from any goroutine (the buffered stream
// serialises writes); Recv, Call and SendRaw only from one goroutine at a
// time.
type Peer struct {
	*Process
	stream jsonrpc2.ObjectStream
	nextID uint64
	// Echo marks a reference child that sends every message back (cat):
	// the echoed request is then the awaited answer, and nothing is
	// answered.
	Echo bool
}

// StartPeer starts name with args in dir, spoken to as a Peer.
func StartPeer(dir, name string, args ...string) (*Peer, error) {
	p, err := Start(dir, nil, name, args...)
	if err != nil {
		return nil, err
	}
	return &Peer{Process: p, stream: p.Stream()}, nil
}

// StartSidecarPeer starts `bin serve --stdio` in workspace as a Peer.
func StartSidecarPeer(bin, workspace string) (*Peer, error) {
	return StartPeer(workspace, bin, "serve", "--stdio")
}

func (c *Peer) Send(m Message) error { return c.stream.WriteObject(m) }

func (c *Peer) Recv(m *Message) error {
	*m = Message{}
	return c.stream.ReadObject(m)
}

// NewRequest is a request with the next id.
func (c *Peer) NewRequest(method string, params any) Message {
	c.nextID++
	return Request(c.nextID, method, params)
}

// Call sends a request and reads until the message carrying its id comes
// back, answering the sidecar's own requests on the way. For the echo
// reference that message is the request itself.
func (c *Peer) Call(method string, params any) (Message, error) {
	req := c.NewRequest(method, params)
	if err := c.Send(req); err != nil {
		return Message{}, err
	}
	return c.Await(*req.ID)
}

// SendRaw writes one request whose params are already encoded, straight to
// the child's stdin: a large body is neither copied nor re-validated by
// the encoder. It returns the request's id and the size of its body.
func (c *Peer) SendRaw(method string, params []byte) (jsonrpc2.ID, int, error) {
	c.nextID++
	var b bytes.Buffer
	b.Grow(len(params) + 100)
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":`, c.nextID, method)
	b.Write(params)
	b.WriteByte('}')
	id := jsonrpc2.ID{Num: c.nextID}
	if _, err := fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n", b.Len()); err != nil {
		return id, 0, err
	}
	_, err := c.stdin.Write(b.Bytes())
	return id, b.Len(), err
}

// Await reads until the reply to id (for the echo reference, the echoed
// request), answering the child's requests and skipping notifications.
func (c *Peer) Await(id jsonrpc2.ID) (Message, error) {
	var m Message
	for {
		if err := c.Recv(&m); err != nil {
			return Message{}, c.Wrap(err)
		}
		if m.ID != nil && *m.ID == id && (m.Method == "" || c.Echo) {
			return m, nil
		}
		if m.ID != nil && m.Method != "" && !c.Echo {
			if err := c.Answer(m); err != nil {
				return Message{}, err
			}
		}
	}
}

// Answer replies to a server→client request the way an editor with no open
// buffers and no diagnostics would.
func (c *Peer) Answer(m Message) error {
	reply := Message{JSONRPC: "2.0", ID: m.ID}
	switch m.Method {
	case "editor/dirtyBuffer":
		reply.Result = MustJSON(protocol.DirtyBufferResult{})
	case "editor/diagnostics":
		reply.Result = MustJSON(protocol.DiagnosticsResult{})
	default:
		reply.Error = &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "the benchmark client does not answer " + m.Method}
	}
	return c.Send(reply)
}

// Wrap adds the tail of the child's stderr to err.
func (c *Peer) Wrap(err error) error {
	if s := c.Stderr(); s != "" {
		return fmt.Errorf("%w; child stderr:\n%s", err, s)
	}
	return err
}

// Shutdown is the polite LSP ending: shutdown, exit, then wait up to grace
// for the process to leave on its own before closing its stdin. Closing
// stdin right after exit would race the sidecar's handling of exit with
// its editor-went-away path, which exits 1.
func (c *Peer) Shutdown(grace time.Duration) error {
	if _, err := c.Call("shutdown", nil); err != nil {
		_ = c.Close(time.Second)
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := c.Send(Message{JSONRPC: "2.0", Method: "exit"}); err != nil {
		_ = c.Close(time.Second)
		return fmt.Errorf("exit: %w", err)
	}
	exited, err := c.wait(grace)
	_ = c.stdin.Close()
	if !exited {
		return fmt.Errorf("sidecar still running %s after shutdown+exit; killed; stderr:\n%s", grace, c.Stderr())
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return fmt.Errorf("sidecar exited with %v after shutdown+exit; stderr:\n%s", exitErr, c.Stderr())
	}
	return err
}
