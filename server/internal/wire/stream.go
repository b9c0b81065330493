package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
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
		body, err := s.readFrame()
		if err != nil {
			var fe *frameError
			if errors.As(err, &fe) {
				s.badInputID(fe, fe.code(), fe.id)
				if fe.resync {
					if err := s.resync(); err != nil {
						return err
					}
				}
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

// frameError is a recoverable framing problem. The bad frame was consumed,
// or, with resync, the stream must be searched for the next frame.
type frameError struct {
	msg     string
	invalid bool // a well-framed message refused (too large): InvalidRequest
	resync  bool
	id      any
}

func (e *frameError) Error() string { return e.msg }

func (e *frameError) code() int64 {
	if e.invalid {
		return jsonrpc2.CodeInvalidRequest
	}
	return jsonrpc2.CodeParseError
}

func (s *stream) readFrame() ([]byte, error) {
	length := -1
	var tooLarge int64
	for {
		line, err := s.readLine()
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
			return nil, &frameError{msg: fmt.Sprintf("malformed header line %q", truncate(line, 80)), resync: true}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, &frameError{msg: fmt.Sprintf("invalid Content-Length %q", truncate(value, 40)), resync: true}
			}
			if n > maxMessage {
				// Refused once the headers end, where the body starts.
				tooLarge = n
				length = 0
				continue
			}
			length = int(n)
		}
	}
	if tooLarge > 0 {
		return nil, s.refuseBody(tooLarge)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// readLine reads one header line of at most maxHeaderLine bytes. A longer
// one is an error, and the stream is resynchronised after it.
func (s *stream) readLine() (string, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxHeaderLine {
			return "", &frameError{msg: fmt.Sprintf("header line longer than %d bytes", maxHeaderLine), resync: true}
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return string(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return "", err
		}
	}
}

// refuseBody skips a body declared larger than maxMessage without storing
// it, so the next message is read normally. The request id is taken from
// the body's start when it is there, so the refusal answers the call.
func (s *stream) refuseBody(n int64) error {
	fe := &frameError{msg: fmt.Sprintf("message of %d bytes refused: at most %d bytes (%d MB) are accepted", n, maxMessage, maxMessage>>20), invalid: true}
	// Only what has arrived: waiting for more could wait forever.
	head, _ := s.r.Peek(min(s.r.Buffered(), 4096, int(min(n, maxDrain))))
	if id := gjson.GetBytes(head, "id"); id.Type == gjson.Number || id.Type == gjson.String {
		fe.id = json.RawMessage(id.Raw)
	}
	if n > maxDrain {
		fe.resync = true
		return fe
	}
	if _, err := s.r.Discard(int(n)); err != nil {
		return err
	}
	return fe
}

// resync discards input up to the next "Content-Length:" header, in one
// pass and without storing it.
func (s *stream) resync() error {
	marker := []byte(headerMarker)
	for {
		n := max(s.r.Buffered(), len(marker))
		buf, err := s.r.Peek(n)
		if i := bytes.Index(buf, marker); i >= 0 {
			_, derr := s.r.Discard(i)
			return derr
		}
		if err != nil {
			return err
		}
		// Keep a tail that may be the start of the marker.
		if _, err := s.r.Discard(len(buf) - (len(marker) - 1)); err != nil {
			return err
		}
	}
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
