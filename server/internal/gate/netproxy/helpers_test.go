package netproxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// safety bounds a test's wait for an event that should come at once; it is
// never waited out when the code works.
const safety = 10 * time.Second

// sockPath is a short socket path (t.TempDir's can pass 108 bytes).
func sockPath(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "np")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "p.sock")
}

// stubLookup resolves names from a table and counts the lookups.
type stubLookup struct {
	mu    sync.Mutex
	names map[string][]string
	calls map[string]int
}

func (s *stubLookup) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[host]++
	var out []netip.Addr
	for _, a := range s.names[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

func (s *stubLookup) count(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[host]
}

// loopbackOpts are the test options: test servers live on loopback, which
// the real check refuses, so the check allows loopback (and only that
// beyond the real policy) and names come from the stub table.
func loopbackOpts(names map[string][]string) (options, *stubLookup) {
	st := &stubLookup{names: names}
	o := defaultOptions()
	o.checkAddr = web.Policy{AllowLoopback: true}.CheckAddr
	o.lookup = st.lookup
	return o, st
}

// refusals collects onRefuse calls.
type refusals struct{ ch chan Refusal }

func newRefusals() *refusals { return &refusals{ch: make(chan Refusal, 64)} }

func (r *refusals) add(x Refusal) { r.ch <- x }

func (r *refusals) next(t *testing.T) Refusal {
	t.Helper()
	select {
	case x := <-r.ch:
		return x
	case <-time.After(safety):
		t.Fatal("no refusal reported")
		return Refusal{}
	}
}

// start runs a proxy for the test; the decider allows what allow says.
func start(t *testing.T, allow Decider, opts options) (*Proxy, *refusals) {
	t.Helper()
	rs := newRefusals()
	p, err := listen(sockPath(t), allow, rs.add, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, rs
}

func allowAll(string) bool { return true }

// dialUnix connects to the proxy with a safety deadline on every read.
func dialUnix(t *testing.T, path string) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(safety))
	return c
}

// echoServer accepts on loopback and echoes each connection until the
// client half-closes, then half-closes in turn: a tunnel that loses a
// half-close leaves the client waiting (and failing at the safety deadline).
func echoServer(t *testing.T, network, addr string) netip.AddrPort {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
				_ = c.(*net.TCPConn).CloseWrite()
				_, _ = io.Copy(io.Discard, c)
			}()
		}
	}()
	return netip.MustParseAddrPort(ln.Addr().String())
}

// connect sends a CONNECT and reads the answer; the reader goes on to
// carry the tunnel.
func connect(t *testing.T, c net.Conn, target string) (*http.Response, string, *bufio.Reader) {
	t.Helper()
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	var body string
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
	}
	return resp, body, br
}

// echoRoundTrip sends msg, half-closes, and expects msg back and then EOF.
func echoRoundTrip(t *testing.T, c net.Conn, r io.Reader, msg string) {
	t.Helper()
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatal(err)
	}
	if err := c.(closeWriter).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("reading the echo: %v", err)
	}
	if string(got) != msg {
		t.Fatalf("echo %q; want %q", got, msg)
	}
}

// readAll reads what the proxy sends until it closes.
func readAll(t *testing.T, c net.Conn) string {
	t.Helper()
	b, err := io.ReadAll(c)
	if err != nil && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}
