package netproxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConnectTunnels: CONNECT to an allowed name reaches the server the
// name resolves to, bytes flow both ways, and a half-close travels through
// the tunnel in both directions. The Decider sees the normalized name, and
// an IP literal in any spelling as its canonical form.
func TestConnectTunnels(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, st := loopbackOpts(map[string][]string{"allowed.test": {"127.0.0.1"}})
	var mu sync.Mutex
	var asked []string
	p, _ := start(t, func(h string) bool {
		mu.Lock()
		asked = append(asked, h)
		mu.Unlock()
		return true
	}, opts)
	for _, host := range []string{"Allowed.TEST.", "0x7f.1"} {
		c := dialUnix(t, p.Path())
		resp, body, br := connect(t, c, fmt.Sprintf("%s:%d", host, echo.Port()))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("CONNECT %s: %d %s", host, resp.StatusCode, body)
		}
		echoRoundTrip(t, c, br, "ping through "+host)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "allowed.test,127.0.0.1" {
		t.Errorf("the Decider was asked %q; want allowed.test then 127.0.0.1", asked)
	}
	if n := st.count("allowed.test"); n != 1 {
		t.Errorf("allowed.test was resolved %d times for one connection; want exactly 1", n)
	}
}

// TestConnectSendsEarlyBytes: bytes a client sends right after the CONNECT
// head, before the answer, reach the server first and in order.
func TestConnectSendsEarlyBytes(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, allowAll, opts)
	c := dialUnix(t, p.Path())
	target := echo.String()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\nearly bytes", target, target)
	c.(closeWriter).CloseWrite()
	got := readAll(t, c)
	if want := "HTTP/1.1 200 Connection established\r\n\r\nearly bytes"; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
}

// TestRefusedByDecider: every protocol answers a host outside the allowlist
// in its own terms, names the host and the reason, and reports it; the
// name is never resolved.
func TestRefusedByDecider(t *testing.T) {
	opts, st := loopbackOpts(map[string][]string{"denied.test": {"127.0.0.1"}})
	p, rs := start(t, Domains("allowed.test"), opts)

	c := dialUnix(t, p.Path())
	resp, body, _ := connect(t, c, "denied.test:443")
	if resp.StatusCode != http.StatusForbidden || body != "govibe sandbox refused denied.test:443: not in the allowed domains\n" {
		t.Errorf("CONNECT: %d %q", resp.StatusCode, body)
	}
	if r := rs.next(t); r != (Refusal{"denied.test", 443, ReasonNotAllowed}) {
		t.Errorf("CONNECT refusal %+v", r)
	}

	c = dialUnix(t, p.Path())
	fmt.Fprint(c, "GET http://denied.test/x HTTP/1.1\r\nHost: denied.test\r\n\r\n")
	if got := readAll(t, c); !strings.HasPrefix(got, "HTTP/1.1 403 Forbidden\r\n") || !strings.HasSuffix(got, "denied.test:80: not in the allowed domains\n") {
		t.Errorf("plain GET: %q", got)
	}
	if r := rs.next(t); r != (Refusal{"denied.test", 80, ReasonNotAllowed}) {
		t.Errorf("GET refusal %+v", r)
	}

	c = dialUnix(t, p.Path())
	if rep := socksConnect(t, c, socksDomain("denied.test"), 22); rep != socksNotAllowed {
		t.Errorf("SOCKS5 reply %#x; want 0x02", rep)
	}
	if r := rs.next(t); r != (Refusal{"denied.test", 22, ReasonNotAllowed}) {
		t.Errorf("SOCKS5 refusal %+v", r)
	}
	if n := st.count("denied.test"); n != 0 {
		t.Errorf("a refused name was resolved %d times; want 0 (no DNS leak)", n)
	}
}

// TestRealCheckRefusesInternalAddresses: with the production address check
// and resolver, and a Decider that allows everything, internal addresses
// are refused at dial time, literal or resolved.
func TestRealCheckRefusesInternalAddresses(t *testing.T) {
	p, rs := start(t, allowAll, defaultOptions())
	for _, tt := range []struct{ target, host, reason string }{
		{"127.0.0.1:80", "127.0.0.1", "loopback address 127.0.0.1"},
		{"10.1.2.3:443", "10.1.2.3", "private network address 10.1.2.3"},
		{"169.254.169.254:80", "169.254.169.254", "link-local, cloud metadata address 169.254.169.254"},
		{"[::1]:443", "::1", "loopback address ::1"},
		{"[::ffff:10.0.0.1]:443", "10.0.0.1", "private network address 10.0.0.1"},
		{"localhost:80", "localhost", "localhost resolves to loopback address"},
		{"100.64.0.1:80", "100.64.0.1", "carrier-grade NAT address"},
		{"0.0.0.0:80", "0.0.0.0", "unspecified address"},
		{"224.0.0.1:80", "224.0.0.1", "multicast address"},
	} {
		c := dialUnix(t, p.Path())
		resp, body, _ := connect(t, c, tt.target)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, tt.reason) {
			t.Errorf("CONNECT %s: %d %q; want 403 saying %q", tt.target, resp.StatusCode, body, tt.reason)
		}
		if r := rs.next(t); r.Host != tt.host || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("CONNECT %s reported %+v", tt.target, r)
		}
	}
}

// TestEveryAnswerIsChecked: a name with one internal answer among public
// ones is refused, whatever the order, after a single lookup.
func TestEveryAnswerIsChecked(t *testing.T) {
	opts, st := loopbackOpts(map[string][]string{"mixed.test": {"127.0.0.1", "10.0.0.7"}})
	p, rs := start(t, allowAll, opts)
	c := dialUnix(t, p.Path())
	resp, body, _ := connect(t, c, "mixed.test:443")
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "mixed.test resolves to private network address 10.0.0.7") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	rs.next(t)
	if n := st.count("mixed.test"); n != 1 {
		t.Errorf("resolved %d times; want 1", n)
	}
}

// TestDialFailureIsNotARefusal: a name that does not resolve gets 502 and
// is not reported as a policy refusal.
func TestDialFailureIsNotARefusal(t *testing.T) {
	opts, _ := loopbackOpts(nil)
	p, rs := start(t, allowAll, opts)
	c := dialUnix(t, p.Path())
	resp, body, _ := connect(t, c, "nowhere.test:443")
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, "cannot resolve nowhere.test") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	select {
	case r := <-rs.ch:
		t.Errorf("reported %+v", r)
	default:
	}
}

// TestJunk: a first byte no protocol starts with is closed unanswered;
// malformed or non-proxy HTTP heads get a 4xx or 505 and a close.
func TestJunk(t *testing.T) {
	opts, _ := loopbackOpts(nil)
	p, rs := start(t, allowAll, opts)
	for _, tt := range []struct{ name, send, want string }{
		{"TLS hello sent straight", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", ""},
		{"SOCKS4", "\x04\x01\x00\x50\x7f\x00\x00\x01\x00", ""},
		{"NUL bytes", "\x00\x00\x00\x00", ""},
		{"text that is not HTTP", "HELLO there\r\n\r\n", "HTTP/1.1 400 "},
		{"origin-form request", "GET /etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 400 "},
		{"https absolute-form", "GET https://a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n", "HTTP/1.1 400 "},
		{"credentials in URL", "GET http://u:p@a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n", "HTTP/1.1 400 "},
		{"CONNECT without port", "CONNECT a.test HTTP/1.1\r\nHost: a.test\r\n\r\n", "HTTP/1.1 400 "},
		{"CONNECT port 0", "CONNECT a.test:0 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
		{"CONNECT port 70000", "CONNECT a.test:70000 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
		{"CONNECT user@host", "CONNECT u@a.test:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
		{"CONNECT to a path", "CONNECT /a.test:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
		{"host with a percent", "CONNECT a%2e.test:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
		{"HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "HTTP/1.1 "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := dialUnix(t, p.Path())
			io.WriteString(c, tt.send)
			got := readAll(t, c)
			if tt.want == "" && got != "" || !strings.HasPrefix(got, tt.want) || strings.HasPrefix(got, "HTTP/1.1 200") {
				t.Fatalf("answered %q; want a close after %q", got, tt.want)
			}
		})
	}
	select {
	case r := <-rs.ch:
		t.Errorf("junk was reported as a refusal: %+v", r)
	default:
	}
}

// TestHeadCap: a head over 16 KiB gets 431 and a close; one just under the
// cap is served.
func TestHeadCap(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, allowAll, opts)

	c := dialUnix(t, p.Path())
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nX-Pad: %s\r\n\r\n", echo, strings.Repeat("a", 20<<10))
	if got := readAll(t, c); !strings.HasPrefix(got, "HTTP/1.1 431 ") {
		t.Fatalf("oversized head answered %q", clip(got))
	}

	c = dialUnix(t, p.Path())
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nX-Pad: %s\r\n\r\n", echo, strings.Repeat("a", 15<<10))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("a 15 KiB head: %v %v", resp, err)
	}
	echoRoundTrip(t, c, br, "fits")
}

// TestSilentClientIsDropped: a client that connects and sends nothing, or
// sends half a head, is closed at the head deadline.
func TestSilentClientIsDropped(t *testing.T) {
	opts, _ := loopbackOpts(nil)
	opts.headTimeout = 50 * time.Millisecond
	p, _ := start(t, allowAll, opts)
	for _, send := range []string{"", "CONNECT a.test:443 HTTP/1.1\r\n", "\x05\x01"} {
		c := dialUnix(t, p.Path())
		io.WriteString(c, send)
		var ne net.Error
		if _, err := io.ReadAll(c); errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("after %q the proxy kept the connection open", send)
		}
	}
}

// TestConnectionCap: with a cap of one, a second client is not served
// while the first holds the slot, and is served as soon as it leaves.
func TestConnectionCap(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(nil)
	opts.maxConns = 1
	served := make(chan struct{}, 4)
	opts.served = func() { served <- struct{}{} }
	p, _ := start(t, allowAll, opts)

	first := dialUnix(t, p.Path())
	resp, _, br1 := connect(t, first, echo.String())
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	second := dialUnix(t, p.Path()) // queued in the backlog
	fmt.Fprintf(second, "CONNECT %s HTTP/1.1\r\n\r\n", echo)
	second.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	var ne net.Error
	if _, err := second.Read(make([]byte, 1)); !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("the second client was served while the only slot was taken: %v", err)
	}
	second.SetReadDeadline(time.Now().Add(safety))
	echoRoundTrip(t, first, br1, "first")
	select {
	case <-served:
	case <-time.After(safety):
		t.Fatal("the first connection never ended")
	}
	br2 := bufio.NewReader(second)
	if resp, err := http.ReadResponse(br2, &http.Request{Method: http.MethodConnect}); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the second client, after the first left: %v %v", resp, err)
	}
	echoRoundTrip(t, second, br2, "second")
}

// TestCloseEndsTunnels: Close ends a live tunnel, removes the socket file,
// refuses new clients, and can be called again.
func TestCloseEndsTunnels(t *testing.T) {
	echo := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, allowAll, opts)
	c := dialUnix(t, p.Path())
	resp, _, br := connect(t, c, echo.String())
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(br); err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the tunnel outlived Close")
		}
	}
	if _, err := os.Stat(p.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file after Close: %v", err)
	}
	if _, err := net.Dial("unix", p.Path()); err == nil {
		t.Error("a client connected after Close")
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestListenErrors: bad arguments are refused with a clear error.
func TestListenErrors(t *testing.T) {
	path := sockPath(t)
	if _, err := Listen(path, nil, nil); err == nil || !strings.Contains(err.Error(), "Decider") {
		t.Errorf("nil Decider: %v", err)
	}
	if _, err := Listen("/nonexistent-dir/p.sock", allowAll, nil); err == nil || !strings.Contains(err.Error(), "/nonexistent-dir/p.sock") {
		t.Errorf("missing directory: %v", err)
	}
	long := "/tmp/" + strings.Repeat("x", 120)
	if _, err := Listen(long, allowAll, nil); err == nil || !strings.Contains(err.Error(), "under 104 bytes") {
		t.Errorf("long path: %v", err)
	}
	p, err := Listen(path, allowAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if _, err := Listen(path, allowAll, nil); err == nil {
		t.Error("a second Listen on a live socket succeeded")
	}
}
