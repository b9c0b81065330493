package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// headerRoom is reserved at the start of every frame buffer for the
// Content-Length header, which is written last, once the body's length is
// known, so header and body go out in one write without a copy.
const headerRoom = len("Content-Length: ") + 20 + len("\r\n\r\n")

// maxPooledOutgoing keeps one huge message (a session export) from pinning its
// buffer in the pool for the life of the process.
const maxPooledOutgoing = 1 << 20

// outgoing builds one LSP-framed JSON-RPC message. jsonrpc2 marshals a
// message's params, then the message through a map (sorting its keys and
// re-validating the params), and then the stream marshals it once more;
// an outgoing encodes each value exactly once, straight into the buffer that is
// written.
//
// Concurrency: an outgoing is used by one goroutine between getOutgoing and
// release.
type outgoing struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var outgoingPool = sync.Pool{New: func() any {
	f := &outgoing{}
	f.enc = json.NewEncoder(&f.buf)
	return f
}}

// getOutgoing returns an empty frame with the header room reserved.
func getOutgoing() *outgoing {
	f := outgoingPool.Get().(*outgoing)
	f.reset()
	return f
}

// reset empties the frame, keeping its buffer.
func (f *outgoing) reset() {
	f.buf.Reset()
	var room [headerRoom]byte
	f.buf.Write(room[:])
}

func (f *outgoing) release() {
	if f.buf.Cap() <= maxPooledOutgoing {
		outgoingPool.Put(f)
	}
}

func (f *outgoing) raw(s string) { f.buf.WriteString(s) }

// value appends v's JSON, encoded as json.Marshal would (HTML-safe
// escaping included), without the newline json.Encoder adds.
func (f *outgoing) value(v any) error {
	if err := f.enc.Encode(v); err != nil {
		return err
	}
	f.buf.Truncate(f.buf.Len() - 1)
	return nil
}

// bytes fills in the header and returns the whole framed message. It is
// valid until release.
func (f *outgoing) bytes() []byte {
	b := f.buf.Bytes()
	var hdr [headerRoom]byte
	h := append(hdr[:0], "Content-Length: "...)
	h = strconv.AppendInt(h, int64(len(b)-headerRoom), 10)
	h = append(h, "\r\n\r\n"...)
	start := headerRoom - len(h)
	copy(b[start:], h)
	return b[start:]
}

// notification frames a JSON-RPC notification; params is omitted when nil,
// as jsonrpc2 does.
func (f *outgoing) notification(method string, params any) error {
	f.raw(`{"jsonrpc":"2.0","method":`)
	if err := f.value(method); err != nil {
		return err
	}
	if params != nil {
		f.raw(`,"params":`)
		if err := f.value(params); err != nil {
			return err
		}
	}
	f.raw(`}`)
	return nil
}

// result frames a successful response.
func (f *outgoing) result(id any, result any) error {
	f.raw(`{"jsonrpc":"2.0","id":`)
	if err := f.value(id); err != nil {
		return err
	}
	f.raw(`,"result":`)
	if err := f.value(result); err != nil {
		return err
	}
	f.raw(`}`)
	return nil
}

// failure frames an error response.
func (f *outgoing) failure(id any, e any) error {
	f.raw(`{"jsonrpc":"2.0","id":`)
	if err := f.value(id); err != nil {
		return err
	}
	f.raw(`,"error":`)
	if err := f.value(e); err != nil {
		return err
	}
	f.raw(`}`)
	return nil
}
