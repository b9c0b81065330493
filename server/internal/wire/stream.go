// Package wire is the JSON-RPC edge: framing, ordering, cancellation and
// panic recovery around sourcegraph/jsonrpc2. Nothing above it sees
// jsonrpc2 types.
package wire

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// maxMessage bounds one framed message, so a corrupt header cannot make us
// allocate gigabytes.
const maxMessage = 256 << 20

// stream is a jsonrpc2.ObjectStream with LSP's Content-Length framing (the
// same bytes jsonrpc2.VSCodeObjectCodec writes). Unlike the codec, it reads
// each body whole before decoding, so a malformed message is answered with
// a parse error and the connection stays usable; jsonrpc2 itself closes the
// connection on any read error.
//
// ReadObject is called only by jsonrpc2's read loop; WriteObject may be
// called concurrently and is serialised by mu.
type stream struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
	mu     sync.Mutex
	// onBadInput is told about every message that had to be skipped.
	onBadInput func(error)
}

func newStream(rwc io.ReadWriteCloser, onBadInput func(error)) *stream {
	return &stream{r: bufio.NewReaderSize(rwc, 64<<10), w: rwc, closer: rwc, onBadInput: onBadInput}
}

func (s *stream) WriteObject(obj any) error {
	f := getOutgoing()
	defer f.release()
	if err := f.value(obj); err != nil {
		return err
	}
	return s.writeFrame(f)
}

// writeFrame writes one whole framed message; concurrent frames never
// interleave.
func (s *stream) writeFrame(f *outgoing) error {
	b := f.bytes()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.w.Write(b)
	return err
}

func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readFrame()
		if err != nil {
			var fe *frameError
			if errors.As(err, &fe) {
				s.badInput(fe, jsonrpc2.CodeParseError)
				continue
			}
			return err
		}
		if err := json.Unmarshal(body, v); err != nil {
			code := int64(jsonrpc2.CodeParseError)
			if json.Valid(body) {
				code = jsonrpc2.CodeInvalidRequest
			}
			s.badInput(fmt.Errorf("invalid message: %w", err), code)
			continue
		}
		return nil
	}
}

func (s *stream) badInput(err error, code int64) {
	if s.onBadInput != nil {
		s.onBadInput(err)
	}
	// JSON-RPC answers unparseable input with id null.
	_ = s.WriteObject(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": err.Error()},
	})
}

// frameError is a recoverable framing problem: the bad frame was consumed.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

func (s *stream) readFrame() ([]byte, error) {
	length := -1
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				// A blank line with no header: skip stray newlines.
				continue
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, &frameError{fmt.Sprintf("malformed header line %q", truncate(line, 80))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, &frameError{fmt.Sprintf("invalid Content-Length %q", truncate(value, 40))}
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, err
	}
	return body, nil
}

func (s *stream) Close() error { return s.closer.Close() }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
