package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// The framing property (issue 31): whatever is done to some frames of a
// stream (junk before them, lengths off in either direction, headers
// repeated, missing or cut, frames cut short), every frame that was not
// itself damaged is delivered, once, in order, with its params intact; and
// reading a complete input ends, however it is split into reads.

// sent is one generated frame and whether its own bytes are intact.
type sent struct {
	id     int
	params string
	intact bool
}

// damage is what the generator may do to one frame (or before it).
type damage int

const (
	keep damage = iota
	junkBefore
	lengthLonger
	lengthShorter
	cutShort
	headerTwice
	noHeader
	noBlankLine
	contentType
	lowerCase
	junkHeaderLine
	damages
)

// damagesIntact says which damages leave the frame itself deliverable.
var damagesIntact = map[damage]bool{keep: true, junkBefore: true, headerTwice: true, contentType: true, lowerCase: true}

// junks are the shapes put before a frame: stray bytes with and without
// line ends, partial and complete fake headers, JSON fragments, a line
// longer than the header bound, invalid UTF-8 and NUL.
var junks = []string{
	"GARBAGE", "\r\n", "\n\n", "hello world\r\n", "X-Foo: bar\r\n", "X-Foo: bar",
	"Content-Len", "Content-Length", "Content-Length:", "Content-Length: \r\n",
	"Content-Length: nope\r\n\r\n", "Content-Length: 3\r\n\r\n", "Content-Length: 300\r\n\r\n",
	"Content-Length: 7", "Content-Length: 2\r\n\r\n{}", "{\"jsonrpc\":\"2.0\"", "}", "\xff\xfe\x00\x01",
	strings.Repeat("x", 5000), "X-Long: " + strings.Repeat("y", 6000), "Content-Type: text\r\n",
	"content-length: 4\r\n\r\nnull", "Content-Length: 00\r\n\r\n",
}

// texts are params contents, some of them shaped like framing.
var texts = []string{
	"hello", "Content-Length: 5\r\n\r\n{}", "{\"a\":[1,2,3]}", "ünïcödé ✓ 中文", "}", "\\", strings.Repeat("z", 3000), "",
}

// genStream builds one input of n frames and what was sent.
func genStream(r *rand.Rand, n int) ([]byte, []sent) {
	var b bytes.Buffer
	var out []sent
	for i := 1; i <= n; i++ {
		text := texts[r.IntN(len(texts))]
		if r.IntN(4) == 0 {
			text += fmt.Sprint(r.Int())
		}
		params, _ := json.Marshal(map[string]any{"text": text, "n": i})
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m","params":%s}`, i, params)
		d := keep
		if r.IntN(2) == 0 {
			d = damage(r.IntN(int(damages)))
		}
		out = append(out, sent{id: i, params: string(params), intact: damagesIntact[d]})
		header := fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))
		switch d {
		case junkBefore:
			b.WriteString(junks[r.IntN(len(junks))])
		case lengthLonger:
			header = fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)+1+r.IntN(3))
		case lengthShorter:
			header = fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)-1-r.IntN(3))
		case cutShort:
			whole := header + body
			b.WriteString(whole[:r.IntN(len(whole))])
			continue
		case headerTwice:
			header = fmt.Sprintf("Content-Length: %d\r\n", len(body)) + header
		case noHeader:
			header = ""
		case noBlankLine:
			header = fmt.Sprintf("Content-Length: %d\r\n", len(body))
		case contentType:
			header = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + header
		case lowerCase:
			header = strings.ToLower(header)
		case junkHeaderLine:
			header = fmt.Sprintf("Content-Length: %d\r\nnot a header\r\n\r\n", len(body))
		}
		b.WriteString(header + body)
	}
	return b.Bytes(), out
}

type got struct {
	id     int
	params string
}

// readStream reads every message of in through a stream, as jsonrpc2's
// read loop would, until the input ends; it fails when that takes longer
// than a generous bound (the reader blocked on a complete input).
func readStream(t *testing.T, in io.Reader) []got {
	t.Helper()
	done := make(chan []got, 1)
	go func() {
		var out []got
		s := newStream(rwc{in, io.Discard}, nil)
		for {
			var m struct {
				ID     *int            `json:"id"`
				Params json.RawMessage `json:"params"`
			}
			if err := s.ReadObject(&m); err != nil {
				done <- out
				return
			}
			p := m.Params
			if sp := s.takeSplit(); sp != nil {
				p = *sp
			}
			if m.ID != nil {
				out = append(out, got{*m.ID, string(p)})
			}
		}
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(30 * time.Second):
		t.Fatal("reading a complete input did not end within 30 s")
		return nil
	}
}

// chunked feeds b through a pipe in reads of random sizes, so frames,
// headers and markers are split anywhere.
func chunked(r *rand.Rand, b []byte) io.Reader {
	pr, pw := io.Pipe()
	sizes := make([]int, 0, 64)
	for rest := len(b); rest > 0; {
		n := min(rest, 1+r.IntN(200))
		sizes = append(sizes, n)
		rest -= n
	}
	go func() {
		for _, n := range sizes {
			if _, err := pw.Write(b[:n]); err != nil {
				return
			}
			b = b[n:]
		}
		pw.Close()
	}()
	return pr
}

// checkDelivery asserts the property for one stream.
func checkDelivery(t *testing.T, input []byte, frames []sent, out []got) {
	t.Helper()
	byID := map[int]sent{}
	for _, f := range frames {
		byID[f.id] = f
	}
	seen := map[int]bool{}
	last := 0
	for _, g := range out {
		f, ok := byID[g.id]
		if !ok {
			t.Fatalf("delivered a message with id %d that was never sent\ninput: %q", g.id, input)
		}
		if g.params != f.params {
			t.Fatalf("frame %d delivered with params %s, sent %s\ninput: %q", g.id, g.params, f.params, input)
		}
		if seen[g.id] {
			t.Fatalf("frame %d delivered twice\ninput: %q", g.id, input)
		}
		if g.id < last {
			t.Fatalf("frame %d delivered after frame %d\ninput: %q", g.id, last, input)
		}
		seen[g.id], last = true, g.id
	}
	for _, f := range frames {
		if f.intact && !seen[f.id] {
			t.Fatalf("intact frame %d was not delivered (delivered: %v)\ninput: %q", f.id, out, input)
		}
	}
}

func TestFramingProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2026))
	for round := range 2000 {
		input, frames := genStream(r, 1+r.IntN(12))
		var in io.Reader
		switch round % 3 {
		case 0:
			in = bytes.NewReader(input)
		case 1:
			in = iotest.OneByteReader(bytes.NewReader(input))
		default:
			in = chunked(r, input)
		}
		checkDelivery(t, input, frames, readStream(t, in))
	}
}

// TestGarbageWithoutNewlineBeforeAFrame is the red team's case: stray
// bytes with no line end, then a valid frame, wedged the stream for good.
func TestGarbageWithoutNewlineBeforeAFrame(t *testing.T) {
	w, replies := serveEcho(t)
	go w.Write([]byte("GARBAGE" + frame(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "session/get"})))
	// The junk goes to the log only: it is no one's request.
	if r := next(t, replies); string(r.ID) != "7" || string(r.Result) != `"pong"` {
		t.Fatalf("the frame after the junk is not answered: %+v", r)
	}
	ping(t, w, replies, 8)
}

// FuzzFraming runs the property on inputs the fuzzer drives: its bytes
// seed the generator, and are also appended raw as junk after the frames.
func FuzzFraming(f *testing.F) {
	f.Add(uint64(1), []byte("GARBAGE"))
	f.Add(uint64(2), []byte("Content-Length: 10\r\n\r\n"))
	f.Fuzz(func(t *testing.T, seed uint64, tail []byte) {
		r := rand.New(rand.NewPCG(seed, 31))
		input, frames := genStream(r, 1+r.IntN(8))
		input = append(input, tail...)
		checkDelivery(t, input, frames, readStream(t, chunked(r, input)))
	})
}
