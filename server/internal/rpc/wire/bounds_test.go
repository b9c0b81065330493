package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
)

type reply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
	size   int
}

// serveEcho serves a handler answering "ping" and refusing other methods
// by name (as protocol.Dispatch does), and returns the writer to the
// server and a channel of its replies.
func serveEcho(t *testing.T) (io.Writer, <-chan reply) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	Serve(context.Background(), rwc{inR, outW}, func(ctx context.Context, m string, p json.RawMessage) (any, error) {
		if m == "session/get" {
			return "pong", nil
		}
		return nil, protocol.Errorf(protocol.CodeMethodNotFound, "unknown method %q", m)
	}, zap.NewNop())
	replies := make(chan reply, 16)
	go func() {
		r := bufio.NewReader(outR)
		for {
			n := -1
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					close(replies)
					return
				}
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length:"); ok {
					n, _ = strconv.Atoi(strings.TrimSpace(v))
				}
				if strings.TrimSpace(line) == "" && n >= 0 {
					break
				}
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				close(replies)
				return
			}
			var rep reply
			json.Unmarshal(b, &rep)
			rep.size = n
			replies <- rep
		}
	}()
	return inW, replies
}

func next(t *testing.T, replies <-chan reply) reply {
	t.Helper()
	select {
	case r, ok := <-replies:
		if !ok {
			t.Fatal("the connection closed")
		}
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("no reply")
	}
	return reply{}
}

// ping writes a valid request and expects its answer next.
func ping(t *testing.T, w io.Writer, replies <-chan reply, id int) {
	t.Helper()
	go w.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/get"})))
	r := next(t, replies)
	if string(r.ID) != strconv.Itoa(id) || string(r.Result) != `"pong"` {
		t.Fatalf("after the bad input, request %d got %+v", id, r)
	}
}

func TestOversizeHeaderLineThenValidRequest(t *testing.T) {
	w, replies := serveEcho(t)
	go w.Write([]byte("X-Junk: " + strings.Repeat("h", 1<<20) + "\r\n"))
	r := next(t, replies)
	if r.Error == nil || !strings.Contains(r.Error.Message, "header line longer than 4096 bytes") || string(r.ID) != "null" {
		t.Fatalf("oversize header: %+v", r)
	}
	ping(t, w, replies, 1)
}

// TestOversizeBodyThenValidRequest: a 65 MB body is refused (answering
// its id), skipped without being stored, and the next request answered.
func TestOversizeBodyThenValidRequest(t *testing.T) {
	w, replies := serveEcho(t)
	params := strings.Repeat("p", maxMessage+1024)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":41,"method":"chat/send","params":{"text":%q}}`, params)
	go w.Write([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)))
	r := next(t, replies)
	if r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "41" || !strings.Contains(r.Error.Message, "at most 67108864 bytes (64 MB)") {
		t.Fatalf("oversize body: %+v", r)
	}
	ping(t, w, replies, 2)
}

// TestHugeDeclaredLengthResynchronises: a length no peer could mean (and
// whose body never comes) is refused, and the stream picks up at the next
// header.
func TestHugeDeclaredLengthResynchronises(t *testing.T) {
	w, replies := serveEcho(t)
	go w.Write([]byte("Content-Length: 99999999999999\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":5"))
	r := next(t, replies)
	if r.Error == nil || string(r.ID) != "5" {
		t.Fatalf("huge length: %+v", r)
	}
	ping(t, w, replies, 3)
	go w.Write([]byte("Content-Length: nope\r\n\r\ngarbage garbage"))
	if r := next(t, replies); r.Error == nil || !strings.Contains(r.Error.Message, "invalid Content-Length") {
		t.Fatalf("bad length: %+v", r)
	}
	ping(t, w, replies, 4)
}

// TestErrorRepliesDoNotEchoHugeInput: a 1 MB method name comes back cut
// to a few KB.
func TestErrorRepliesDoNotEchoHugeInput(t *testing.T) {
	w, replies := serveEcho(t)
	go w.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": 6, "method": strings.Repeat("m", 1<<20)})))
	r := next(t, replies)
	if r.Error == nil || r.size > 4096 || !strings.Contains(r.Error.Message, "more bytes cut") {
		t.Fatalf("reply of %d bytes: %.200s", r.size, r.Error.Message)
	}
	ping(t, w, replies, 5)
}

func TestBound(t *testing.T) {
	if Bound("short") != "short" {
		t.Fatal("short text must be kept")
	}
	// Cutting inside a multi-byte rune leaves valid UTF-8.
	s := Bound(strings.Repeat("é", 3000))
	if len(s) > maxEcho+40 || !strings.HasSuffix(s, "more bytes cut]") || !json.Valid([]byte(strconv.Quote(s))) {
		t.Fatalf("bound: %d bytes %q", len(s), s[len(s)-40:])
	}
}
