package netproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestForwardEndToEnd: a TCP client inside the "sandbox" reaches the
// target through Forward, the Unix socket and the proxy; a refusal comes
// back the same way; cancelling ctx stops Forward, closes its listener and
// ends live connections.
func TestForwardEndToEnd(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(map[string][]string{"allowed.test": {"127.0.0.1"}})
	p, rs := start(t, Domains("allowed.test"), opts)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Forward(ctx, ln, p.Path()) }()

	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(safety))
		return c
	}
	c := dial()
	resp, body, br := connect(t, c, fmt.Sprintf("allowed.test:%d", echo.Port()))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	echoRoundTrip(t, c, br, "through the forwarder")

	c = dial()
	if rep := socksConnect(t, c, socksDomain("other.test"), 443); rep != socksNotAllowed {
		t.Errorf("SOCKS5 through the forwarder: reply %#x; want 0x02", rep)
	}
	if r := rs.next(t); r.Host != "other.test" {
		t.Errorf("refusal %+v", r)
	}

	live := dial() // a tunnel still open when ctx ends
	resp, body, liveBr := connect(t, live, fmt.Sprintf("allowed.test:%d", echo.Port()))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Forward returned %v after ctx ended; want nil", err)
		}
	case <-time.After(safety):
		t.Fatal("Forward did not return after ctx ended")
	}
	var ne net.Error
	if _, err := io.ReadAll(liveBr); errors.As(err, &ne) && ne.Timeout() {
		t.Error("a live tunnel outlived Forward")
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("the listener still accepts after Forward returned")
	}
}

// TestForwardListenerFailure: Forward returns the listener's error when
// the listener fails while ctx is still live.
func TestForwardListenerFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := Forward(context.Background(), ln, "/nonexistent.sock"); err == nil {
		t.Fatal("Forward on a closed listener returned nil")
	}
}
