package benchclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

func frame(t *testing.T, m Message) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b), b)
}

func TestEchoChildReturnsTheRequest(t *testing.T) {
	c, err := StartPeer(t.TempDir(), "cat")
	if err != nil {
		t.Fatal(err)
	}
	c.Echo = true
	for i := 1; i <= 3; i++ {
		m, err := c.Call("bench/echo", map[string]int{"n": i})
		if err != nil {
			t.Fatal(err)
		}
		if m.Method != "bench/echo" || m.ID == nil || m.ID.Num != uint64(i) || string(m.Params) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("call %d: echoed %+v", i, m)
		}
	}
	if err := c.Close(5 * time.Second); err != nil {
		t.Fatalf("cat did not exit cleanly on EOF: %v", err)
	}
}

// A sidecar's own request may carry the same numeric id as ours; it must be
// answered, not mistaken for our reply, and notifications in between are
// skipped.
func TestCallAnswersServerRequestsWithCollidingIDs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "client-wrote")
	script := frame(t, Request(1, "editor/dirtyBuffer", map[string]string{"path": "a.go"})) +
		frame(t, Notification("chat/event", map[string]string{"kind": "textDelta"})) +
		frame(t, Request(2, "editor/unknown", nil)) +
		frame(t, Message{JSONRPC: "2.0", ID: &jsonrpc2.ID{Num: 1}, Result: json.RawMessage(`{"sessions":[]}`)})
	c, err := StartPeer(dir, "sh", "-c", `printf '%s' "$1"; exec cat > "$2"`, "sh", script, out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Call("session/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Method != "" || string(m.Result) != `{"sessions":[]}` {
		t.Fatalf("Call returned %+v, want the response", m)
	}
	if err := c.Close(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var got []Message
	for {
		var m Message
		if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
			break
		}
		got = append(got, m)
	}
	if len(got) != 3 {
		t.Fatalf("client wrote %d messages, want the call and two answers: %+v", len(got), got)
	}
	if got[0].Method != "session/list" {
		t.Errorf("first message %+v, want the session/list call", got[0])
	}
	if a := got[1]; a.Method != "" || a.ID == nil || a.ID.Num != 1 || a.Error != nil || a.Result == nil {
		t.Errorf("answer to editor/dirtyBuffer: %+v, want a result for id 1", a)
	}
	if a := got[2]; a.ID == nil || a.ID.Num != 2 || a.Error == nil || a.Error.Code != jsonrpc2.CodeMethodNotFound {
		t.Errorf("answer to an unknown server request: %+v, want method-not-found for id 2", a)
	}
}

func TestCallReportsChildStderrWhenTheChildDies(t *testing.T) {
	c, err := StartPeer(t.TempDir(), "sh", "-c", "echo 'sidecar: cannot open store' >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Call("initialize", nil)
	if err == nil {
		t.Fatal("Call on a dead child succeeded")
	}
	// The stderr copy may lag the stdout EOF; the error message reads the
	// tail at the moment of failure, so wait for the process first.
	_ = c.Close(5 * time.Second)
	if !strings.Contains(c.Wrap(err).Error(), "cannot open store") {
		t.Fatalf("error %q does not carry the child's stderr", c.Wrap(err))
	}
}

func TestTailBufferKeepsOnlyTheTail(t *testing.T) {
	b := &tailBuffer{max: 10}
	fmt.Fprint(b, "0123456789")
	fmt.Fprint(b, "abcde")
	if got := b.String(); got != "56789abcde" {
		t.Fatalf("tail = %q, want the last 10 bytes", got)
	}
}
