package wire

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// Input bounds. A corrupt or hostile peer must not make the sidecar
// allocate gigabytes, nor echo what it sent back into replies and logs.
const (
	// maxMessage bounds one framed message body. A bigger one is drained
	// without being stored (up to maxDrain) and refused.
	maxMessage = 64 << 20
	// maxDrain is the largest refused body that is skipped by its declared
	// length; above it (or with no usable length) the stream is
	// resynchronised on the next "Content-Length:" header instead.
	maxDrain = 1 << 30
	// maxHeaderLine bounds one header line.
	maxHeaderLine = 4096
	// maxEcho bounds how much of a peer's input an error reply or a log
	// line may quote.
	maxEcho = 2048
)

// headerMarker starts every frame; resynchronising looks for it.
const headerMarker = "Content-Length:"

// stream is a jsonrpc2.ObjectStream with LSP's Content-Length framing (the
// same bytes jsonrpc2.VSCodeObjectCodec writes). Unlike the codec, it reads
// each body whole before decoding, so a malformed message is answered with
// a parse error and the connection stays usable; jsonrpc2 itself closes the
// connection on any read error.
//
// ReadObject is called only by jsonrpc2's read loop; WriteObject may be
// called concurrently and is serialised by mu.
type stream struct {
	fr     *frameReader
	w      io.Writer
	closer io.Closer
	mu     sync.Mutex
	// onBadInput is told about every message that had to be skipped, or
	// mended.
	onBadInput func(error)
	// split holds the params of the request ReadObject returned last,
	// kept out of jsonrpc2's decoding (see decode); Conn.Handle takes them
	// before anything else.
	split *json.RawMessage
}

func newStream(rwc io.ReadWriteCloser, onBadInput func(error)) *stream {
	s := &stream{w: rwc, closer: rwc, onBadInput: onBadInput}
	s.fr = newFrameReader(rwc, func(err error) { s.badInput(err, jsonrpc2.CodeParseError) }, s.note)
	return s
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
func (s *stream) writeFrame(f *outgoing) error { return s.writeFrames(f.bytes()) }

// writeFrames writes whole framed messages in one write; concurrent
// writes never interleave.
func (s *stream) writeFrames(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.w.Write(b)
	return err
}

func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.nextBody()
		if err != nil {
			return err
		}
		if err := s.decode(body, v); err != nil {
			s.badInput(fmt.Errorf("invalid message: %w", err), jsonrpc2.CodeInvalidRequest)
			continue
		}
		return nil
	}
}

func (s *stream) badInput(err error, code int64) { s.badInputID(err, code, nil) }

// badInputID answers input that was skipped. id is the request's id when
// it could be read from a refused body, so the peer's call does not wait
// forever; JSON-RPC answers unparseable input with id null.
func (s *stream) badInputID(err error, code int64, id any) {
	if s.onBadInput != nil {
		s.onBadInput(err)
	}
	_ = s.WriteObject(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": Bound(err.Error())},
	})
}

// frameError is a recoverable framing problem, reported (and answered)
// as the input is skipped.
type frameError struct {
	msg     string
	invalid bool // a well-framed message refused (too large): InvalidRequest
	id      any
}

func (e *frameError) Error() string { return e.msg }

func (e *frameError) code() int64 {
	if e.invalid {
		return jsonrpc2.CodeInvalidRequest
	}
	return jsonrpc2.CodeParseError
}

// refuseBody skips a body declared larger than maxMessage without storing
// it, so the next message is read normally, and answers it. The request
// id is taken from the body's start when it is there, so the refusal
// answers the call. A length above maxDrain is not skipped by: the frame
// reader goes on looking for the next header instead.
func (s *stream) refuseBody(n int64) error {
	fe := &frameError{msg: fmt.Sprintf("message of %d bytes refused: at most %d bytes (%d MB) are accepted", n, maxMessage, maxMessage>>20), invalid: true}
	r := s.fr.r
	// Only what has arrived: waiting for more could wait forever.
	head, _ := r.Peek(min(r.Buffered(), 4096, int(min(n, maxDrain))))
	if id := gjson.GetBytes(head, "id"); id.Type == gjson.Number || id.Type == gjson.String {
		fe.id = json.RawMessage(id.Raw)
	}
	s.badInputID(fe, fe.code(), fe.id)
	if n > maxDrain {
		s.fr.quiet = true // what arrives of that body is not reported again
		return nil
	}
	_, err := r.Discard(int(n))
	return err
}

func (s *stream) Close() error { return s.closer.Close() }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// Bound cuts text a peer may have supplied (an error message quoting a
// method name, a path or a query) to a few KB, saying how much was cut.
func Bound(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	return strings.ToValidUTF8(s[:maxEcho], "") + fmt.Sprintf("… [%d more bytes cut]", len(s)-maxEcho)
}
