package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"go.uber.org/zap"
)

// event is shaped like protocol.ChatEvent: the hot notification.
type event struct {
	SessionID string           `json:"sessionId"`
	Seq       int64            `json:"seq"`
	Kind      string           `json:"kind"`
	Text      string           `json:"text,omitempty"`
	Usage     *struct{ N int } `json:"usage,omitempty"`
}

// served starts a Conn whose output is read back through jsonrpc2's own
// VSCode codec, so the framing is checked by the library, not by us.
func served(t testing.TB, h Handler) (*Conn, *io.PipeWriter, *bufio.Reader) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if h == nil {
		h = func(context.Context, string, json.RawMessage) (any, error) { return nil, nil }
	}
	c := Serve(context.Background(), pipeRWC{inR, outW}, h, zap.NewNop())
	t.Cleanup(func() { inW.Close(); outR.Close(); c.Close() })
	return c, inW, bufio.NewReader(outR)
}

type pipeRWC struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (p pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRWC) Close() error                { p.r.Close(); return p.w.Close() }

func readMsg(t testing.TB, r *bufio.Reader) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
		t.Fatalf("reading a framed message: %v", err)
	}
	return m
}

// A notification carries exactly json.Marshal's encoding of its params
// (HTML-safe escaping and all), and no params member when params is nil.
func TestNotifyEncodesParamsOnce(t *testing.T) {
	c, _, out := served(t, nil)
	ev := event{SessionID: "s1", Seq: 7, Kind: "textDelta", Text: "<b>&\"é😀\u2028\n"}
	go func() {
		_ = c.Notify(context.Background(), "chat/event", &ev)
		_ = c.Notify(context.Background(), "exit", nil)
	}()
	m := readMsg(t, out)
	want, _ := json.Marshal(&ev)
	if string(m["jsonrpc"]) != `"2.0"` || string(m["method"]) != `"chat/event"` || string(m["params"]) != string(want) {
		t.Fatalf("notification %s", m)
	}
	if _, ok := m["id"]; ok {
		t.Fatalf("notification has an id: %s", m)
	}
	var back event
	if err := json.Unmarshal(m["params"], &back); err != nil || !reflect.DeepEqual(back, ev) {
		t.Fatalf("params round trip %+v %v", back, err)
	}
	m = readMsg(t, out)
	if _, ok := m["params"]; ok || string(m["method"]) != `"exit"` {
		t.Fatalf("nil params: %s", m)
	}
}

// Notifications from many goroutines arrive whole, none lost, each
// goroutine's in its own order.
func TestConcurrentNotifiesStayWhole(t *testing.T) {
	c, _, out := served(t, nil)
	const senders, each = 8, 200
	var wg sync.WaitGroup
	for g := 0; g < senders; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				text := strings.Repeat(string(rune('a'+g)), 1+i%50)
				if err := c.Notify(context.Background(), "chat/event", event{SessionID: fmt.Sprint(g), Seq: int64(i), Text: text}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	next := make([]int64, senders)
	for n := 0; n < senders*each; n++ {
		var ev event
		if err := json.Unmarshal(readMsg(t, out)["params"], &ev); err != nil {
			t.Fatal(err)
		}
		var g int
		fmt.Sscan(ev.SessionID, &g)
		if ev.Seq != next[g] || len(ev.Text) != 1+int(ev.Seq)%50 {
			t.Fatalf("sender %d: got seq %d (%d chars), want %d", g, ev.Seq, len(ev.Text), next[g])
		}
		next[g]++
	}
	wg.Wait()
}

// Params that cannot be encoded fail the call and write nothing; a
// closed connection says so.
func TestNotifyErrors(t *testing.T) {
	c, _, out := served(t, nil)
	if err := c.Notify(context.Background(), "bad", map[string]any{"f": func() {}}); err == nil || !strings.Contains(err.Error(), "bad notification") {
		t.Fatalf("unencodable params: %v", err)
	}
	go func() { _ = c.Notify(context.Background(), "good", 1) }()
	if m := readMsg(t, out); string(m["method"]) != `"good"` {
		t.Fatalf("the failed notification left bytes behind: %s", m)
	}
	c.Close()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not closed")
	}
	if err := c.Notify(context.Background(), "late", 1); !errors.Is(err, jsonrpc2.ErrClosed) {
		t.Fatalf("Notify after Close = %v", err)
	}
}

// Replies: a nil result is "result":null, and a result that cannot be
// encoded still answers the request, with an internal error naming it.
func TestRepliesIncludingUnencodableResult(t *testing.T) {
	_, in, out := served(t, func(_ context.Context, m string, _ json.RawMessage) (any, error) {
		switch m {
		case "session/get":
			return map[string]any{"f": func() {}}, nil
		case "session/list":
			return nil, nil
		}
		return []string{"<ok>"}, nil
	})
	go func() {
		for i, m := range []string{"session/get", "session/list", "session/search"} {
			in.Write([]byte(frame(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": m})))
		}
	}()
	got := map[string]map[string]json.RawMessage{}
	for i := 0; i < 3; i++ {
		m := readMsg(t, out)
		got[string(m["id"])] = m
	}
	var e jsonrpc2.Error
	if err := json.Unmarshal(got["1"]["error"], &e); err != nil || e.Code != -32603 || !strings.Contains(e.Message, "session/get") {
		t.Fatalf("unencodable result reply: %s", got["1"])
	}
	if r, ok := got["2"]["result"]; !ok || string(r) != "null" {
		t.Fatalf("nil result reply: %s", got["2"])
	}
	if string(got["3"]["result"]) != `["\u003cok\u003e"]` || string(got["3"]["jsonrpc"]) != `"2.0"` {
		t.Fatalf("result reply: %s", got["3"])
	}
}
