package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
)

type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }

func frame(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b), b)
}

// TestMessagesBeforeEOFAreAllHandled: an editor that writes shutdown and
// exit and closes the pipe at once still has both handled, in order.
func TestMessagesBeforeEOFAreAllHandled(t *testing.T) {
	in := frame(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize"}) +
		frame(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
		frame(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(in)); pw.Close() }()
	var mu sync.Mutex
	var got []string
	var out syncBuf
	c := Serve(context.Background(), rwc{pr, &out}, func(ctx context.Context, m string, p json.RawMessage) (any, error) {
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
		return map[string]any{}, nil
	}, zap.NewNop())
	select {
	case <-c.Drained():
	case <-time.After(5 * time.Second):
		t.Fatal("not drained")
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[initialize shutdown exit]" {
		t.Fatalf("handled %v; wrote %s", got, out.String())
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  []byte
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	return len(p), nil
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}

// TestCancelAndPanic: $/cancelRequest cancels a running handler (reply
// -32800), and a panicking handler becomes an InternalError reply while
// the connection keeps serving.
func TestCancelAndPanic(t *testing.T) {
	pr, pw := io.Pipe()
	var out syncBuf
	started := make(chan struct{})
	Serve(context.Background(), rwc{pr, &out}, func(ctx context.Context, m string, p json.RawMessage) (any, error) {
		switch m {
		case "session/search": // unordered: runs on its own goroutine
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		case "session/list":
			panic("boom")
		}
		return "ok", nil
	}, zap.NewNop())
	pw.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "session/search"})))
	<-started
	pw.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": 7}})))
	pw.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "session/list"})))
	pw.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": 9, "method": "chat/send"})))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		s := out.String()
		if containsAll(s, `"id":7`, "-32800", `"id":8`, "internal error in session/list: boom", `"id":9`, `"result":"ok"`) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("replies: %s", out.String())
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
