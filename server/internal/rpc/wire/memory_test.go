package wire

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLargeRequestGivesMemoryBack: once a request of several MB has been
// answered, its memory is given back to the system (issue 31: the RSS a
// 60 MB message raised stayed raised). The release is coalesced: a burst
// of large requests costs one, then one more after the gap.
func TestLargeRequestGivesMemoryBack(t *testing.T) {
	freed := make(chan struct{}, 16)
	saved := memory
	memory = &releaser{gap: 20 * time.Millisecond, free: func() { freed <- struct{}{} }}
	defer func() { memory = saved }()

	w, replies := serveEcho(t)
	big := strings.Repeat("x", bigMessage)
	for id := 1; id <= 3; id++ {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/get","params":{"text":%q}}`, id, big)
		go w.Write([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)))
		if r := next(t, replies); string(r.Result) != `"pong"` {
			t.Fatalf("request %d: %+v", id, r)
		}
	}
	select {
	case <-freed:
	case <-time.After(10 * time.Second):
		t.Fatal("no memory release after a large request")
	}
	// A small request asks for none.
	ping(t, w, replies, 9)
}

func TestReleaserCoalesces(t *testing.T) {
	calls := make(chan time.Time, 16)
	r := &releaser{gap: 30 * time.Millisecond, free: func() { calls <- time.Now() }}
	for range 5 {
		r.release(0)
	}
	first := receive(t, calls)
	r.release(0)
	second := receive(t, calls)
	if second.Sub(first) < r.gap/2 {
		t.Fatalf("two releases %s apart, the gap is %s", second.Sub(first), r.gap)
	}
	select {
	case <-calls:
		t.Fatal("more releases than asked for after coalescing")
	default:
	}
}

func receive(t *testing.T, c <-chan time.Time) time.Time {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no release within 10 s")
		return time.Time{}
	}
}
