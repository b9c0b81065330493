package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// nextBody returns the next message's body, whole and valid JSON. Junk,
// malformed headers and refused bodies are skipped (and answered with an
// error) by the frame reader and refuseBody; a body whose declared length
// was off is mended where the input shows how (see mend).
func (s *stream) nextBody() ([]byte, error) {
	for {
		n, err := s.fr.header()
		if err != nil {
			return nil, err
		}
		if n > maxMessage {
			if err := s.refuseBody(n); err != nil {
				return nil, err
			}
			continue
		}
		body, err := s.fr.body(n)
		ended := err != nil
		msg, rest, problem := s.mend(body)
		if !s.fr.unread(rest) {
			rest = nil
		}
		if problem != nil {
			if msg != nil {
				// Delivered anyway: only worth a log line.
				s.note(problem)
			} else {
				s.badInput(problem, jsonrpc2.CodeParseError)
				s.fr.quiet = true // the body read again is part of this problem
			}
		}
		if msg != nil {
			return msg, nil
		}
		if ended && len(rest) == 0 {
			return nil, io.ErrUnexpectedEOF
		}
	}
}

func (s *stream) note(err error) {
	if s.onBadInput != nil {
		s.onBadInput(err)
	}
}

// mend judges a body read by its declared length. A valid one is the
// message. Otherwise the length may have been off:
//
//   - too long: the body is a whole JSON value followed by the start of
//     what came next (often the next frame's header); the value is the
//     message and the rest is read again as input;
//   - too short: the body is a JSON value cut before its end, and the few
//     bytes still to come before the next header complete it;
//   - neither: the body was not a message (the header that announced it
//     may have been junk), and it is read again as input, where the next
//     frame may start.
//
// rest is what must be read again. problem, when set, says what was wrong.
func (s *stream) mend(body []byte) (msg, rest []byte, problem error) {
	if len(bytes.TrimSpace(body)) == 0 {
		if len(body) == 0 {
			return nil, nil, errors.New("empty message")
		}
		return nil, nil, errors.New("a message of only white space")
	}
	if json.Valid(body) {
		return body, nil, nil
	}
	var se *json.SyntaxError
	err := json.Unmarshal(body, new(struct{}))
	if errors.As(err, &se) {
		switch {
		case strings.Contains(se.Error(), "after top-level value"):
			if end := int(se.Offset) - 1; end > 0 && end < len(body) && json.Valid(body[:end]) {
				return body[:end], body[end:], fmt.Errorf("Content-Length %d was longer than the message (%d bytes); what followed it is read as the next input", len(body), end)
			}
		case strings.Contains(se.Error(), "unexpected end of JSON input"):
			if whole, n := s.completion(body); whole != nil {
				s.fr.r.Discard(n)
				return whole, nil, fmt.Errorf("Content-Length %d was shorter than the message (%d bytes); it was completed from what followed", len(body), len(whole))
			}
		}
	}
	// Not a message: maybe a header promised more than came, and the
	// next frame hides inside. The body is read again as input (its
	// header is consumed, so this always progresses; the frame reader's
	// budget keeps re-reading linear).
	return nil, body, fmt.Errorf("invalid message: %s", syntaxWords(err))
}

// completion tries to finish a body cut short by its length with the
// input already buffered up to the next header (at most maxMend bytes, so
// a mended body costs one small copy and never a wait).
func (s *stream) completion(body []byte) ([]byte, int) {
	r := s.fr.r
	ahead, _ := r.Peek(min(r.Buffered(), maxMend))
	if i := indexMarker(ahead); i >= 0 {
		ahead = ahead[:i]
	}
	ahead = bytes.TrimRight(ahead, " \t\r\n")
	if len(ahead) == 0 {
		return nil, 0
	}
	whole := make([]byte, 0, len(body)+len(ahead))
	whole = append(append(whole, body...), ahead...)
	if !json.Valid(whole) {
		return nil, 0
	}
	return whole, len(ahead)
}

func syntaxWords(err error) string {
	if err == nil {
		return "not JSON"
	}
	return err.Error()
}

// decode fills jsonrpc2's message v from a valid body. A request's params
// are kept out of jsonrpc2's own decoding, which would hold several copies
// of them at once (a map of the whole message, then the params marshalled
// again): v gets the envelope with a placeholder, and the params are a
// slice of body, handed to Conn.Handle through s.split. For a message of
// tens of MB that is the difference between one copy and seven (issue 31).
func (s *stream) decode(body []byte, v any) error {
	s.split = nil
	env, params, ok := splitRequest(body)
	if !ok {
		if len(body) >= bigMessage {
			// A large reply to one of our calls: jsonrpc2 holds it until
			// the caller has it; its memory goes back after that.
			defer memory.release(replyHold)
		}
		return json.Unmarshal(body, v)
	}
	if err := json.Unmarshal(env, v); err != nil {
		return err
	}
	if params != nil {
		raw := json.RawMessage(params)
		s.split = &raw
	}
	return nil
}

// takeSplit returns the params decode kept aside for the request just
// read, once.
func (s *stream) takeSplit() *json.RawMessage {
	p := s.split
	s.split = nil
	return p
}

// splitPlaceholder stands for the params in the envelope jsonrpc2
// decodes: present, so jsonrpc2 records that params were sent.
const splitPlaceholder = "0"

// splitRequest parses a request's top level (gjson, over body without
// copying it) into an envelope of its small members and its params, a
// slice of body. ok is false for anything that is not a single request
// object; those are decoded as they came.
func splitRequest(body []byte) (env, params []byte, ok bool) {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return nil, nil, false
	}
	str := unsafe.String(&body[0], len(body))
	var method, id, version, meta string
	pStart, pEnd := -1, -1
	gjson.Parse(str).ForEach(func(k, val gjson.Result) bool {
		switch k.String() {
		case "method":
			method = val.Raw
		case "id":
			id = val.Raw
		case "jsonrpc":
			version = val.Raw
		case "meta":
			meta = val.Raw
		case "params":
			pStart, pEnd = val.Index, val.Index+len(val.Raw)
		}
		return true
	})
	if method == "" || (pStart >= 0 && (pStart <= 0 || pEnd > len(body))) {
		// Not a request, or gjson could not place the params.
		return nil, nil, false
	}
	var e bytes.Buffer
	e.Grow(len(method) + len(id) + len(version) + len(meta) + 64)
	e.WriteString(`{"method":`)
	e.WriteString(method)
	for _, f := range [...]struct{ name, raw string }{{"jsonrpc", version}, {"id", id}, {"meta", meta}} {
		if f.raw != "" {
			e.WriteString(`,"` + f.name + `":`)
			e.WriteString(f.raw)
		}
	}
	if pStart >= 0 {
		e.WriteString(`,"params":` + splitPlaceholder)
		params = body[pStart:pEnd]
	}
	e.WriteByte('}')
	return e.Bytes(), params, true
}
