package netproxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestPlainHTTPForwarding: absolute-form requests are forwarded in origin
// form with hop-by-hop headers (and those Connection names) removed, Host
// set to the URL's authority, bodies passed both ways, and the client's
// connection kept for the next request.
func TestPlainHTTPForwarding(t *testing.T) {
	type seen struct {
		method, uri, host, body string
		header                  http.Header
	}
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.RequestURI, r.Host, string(b), r.Header.Clone()}
		w.Header().Set("Keep-Alive", "timeout=5")
		w.Header().Set("X-Answer", "yes")
		if r.Method == http.MethodPost {
			w.(http.Flusher).Flush() // no length: the answer is chunked
		}
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	opts, _ := loopbackOpts(map[string][]string{"web.test": {"127.0.0.1"}})
	p, _ := start(t, Domains("web.test"), opts)

	c := dialUnix(t, p.Path())
	br := bufio.NewReader(c)
	fmt.Fprintf(c, "GET http://web.test:%d/a?q=1 HTTP/1.1\r\nHost: evil.test\r\nProxy-Authorization: Basic eA==\r\n"+
		"Proxy-Connection: keep-alive\r\nConnection: keep-alive, X-Secret\r\nX-Secret: s\r\nTE: trailers\r\nX-Keep: k\r\n\r\n", port)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "hello /a" || resp.Header.Get("X-Answer") != "yes" || resp.Header.Get("Keep-Alive") != "" || resp.Close {
		t.Fatalf("response %d %q %v close=%v", resp.StatusCode, body, resp.Header, resp.Close)
	}
	s := <-got
	if s.uri != "/a?q=1" || s.host != fmt.Sprintf("web.test:%d", port) {
		t.Errorf("server saw %s %s Host %s", s.method, s.uri, s.host)
	}
	for _, h := range []string{"Proxy-Authorization", "Proxy-Connection", "X-Secret", "Te"} {
		if v := s.header.Get(h); v != "" {
			t.Errorf("hop-by-hop header %s: %q reached the server", h, v)
		}
	}
	if s.header.Get("X-Keep") != "k" {
		t.Errorf("end-to-end header lost: %v", s.header)
	}

	// The same connection carries a chunked POST and a chunked answer.
	fmt.Fprintf(c, "POST http://web.test:%d/b HTTP/1.1\r\nHost: web.test\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n", port)
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	if string(body) != "hello /b" || len(resp.TransferEncoding) == 0 {
		t.Fatalf("POST answer %q %v", body, resp.TransferEncoding)
	}
	if s := <-got; s.method != "POST" || s.body != "body" {
		t.Errorf("server saw %s with body %q", s.method, s.body)
	}

	// Connection: close from the client is honoured.
	fmt.Fprintf(c, "HEAD http://web.test:%d/c HTTP/1.1\r\nConnection: close\r\n\r\n", port)
	resp, err = http.ReadResponse(br, &http.Request{Method: http.MethodHead})
	if err != nil || resp.StatusCode != 200 || !resp.Close {
		t.Fatalf("HEAD: %v %v", resp, err)
	}
	<-got
	if rest, _ := io.ReadAll(br); len(rest) != 0 {
		t.Errorf("bytes after a HEAD answer: %q", rest)
	}
}

// TestRealClient: Go's own HTTP client, proxied through the socket, makes
// an HTTPS request (CONNECT) and a plain one (absolute form).
func TestRealClient(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secure") }))
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "plain "+r.Host) }))
	defer plain.Close()
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, Domains("127.0.0.1"), opts)

	tr := tlsSrv.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: "proxy.invalid"})
	tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", p.Path())
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for _, tt := range []struct{ url, want string }{
		{tlsSrv.URL, "secure"},
		{plain.URL, "plain " + strings.TrimPrefix(plain.URL, "http://")},
	} {
		resp, err := client.Get(tt.url)
		if err != nil {
			t.Fatalf("%s: %v", tt.url, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != tt.want {
			t.Errorf("%s: %q; want %q", tt.url, b, tt.want)
		}
	}
}

// TestPlainHTTPUpstreamFailure: a server that closes without answering
// gets 502, not a hang or an empty close.
func TestPlainHTTPUpstreamFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			bufio.NewReader(c).ReadString('\n')
			c.Close()
		}
	}()
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, allowAll, opts)
	c := dialUnix(t, p.Path())
	fmt.Fprintf(c, "GET http://%s/ HTTP/1.1\r\n\r\n", ln.Addr())
	if got := readAll(t, c); !strings.HasPrefix(got, "HTTP/1.1 502 ") {
		t.Fatalf("%q", got)
	}
}

// FuzzReadHead: whatever the bytes, the head parser neither panics nor
// reads past its cap, and a head it accepts names a valid destination.
func FuzzReadHead(f *testing.F) {
	for _, s := range []string{
		"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
		"CONNECT [::1]:443 HTTP/1.1\r\n\r\n",
		"CONNECT 0x7f.1:80 HTTP/1.0\r\n\r\n",
		"GET http://example.com/a?b HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET http://[fe80::1%25eth0]:8080/ HTTP/1.1\r\n\r\n",
		"GET http://u:p@example.com/ HTTP/1.1\r\n\r\n",
		"POST http://example.com/ HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
		"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"CONNECT example.com:99999 HTTP/1.1\r\n\r\n",
		"CONNECT a..b:1 HTTP/1.1\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"GET http://example.com/ HTTP/1.1\r\nX: " + strings.Repeat("y", 300) + "\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 512 // a small cap so the fuzzer reaches it
		r := bytes.NewReader(data)
		cr := &capReader{r: r, left: limit}
		h, err := readHead(bufio.NewReader(cr))
		if used := len(data) - r.Len(); used > limit {
			t.Fatalf("read %d bytes past a cap of %d", used, limit)
		}
		if err != nil {
			var bad *badRequest
			if errors.As(err, &bad) && (bad.status < 400 || bad.status > 505 || bad.msg == "") {
				t.Fatalf("bad answer %d %q", bad.status, bad.msg)
			}
			return
		}
		if h.port < 1 || h.port > 65535 {
			t.Fatalf("port %d accepted", h.port)
		}
		if n, a, err := normalizeHost(h.host); err != nil || n != h.host || a != h.ip {
			t.Fatalf("accepted host %q is not normalized (%q %v %v)", h.host, n, a, err)
		}
		if !h.connect && (h.req.URL.Scheme != "http" || h.req.URL.User != nil) {
			t.Fatalf("accepted %v", h.req.URL)
		}
	})
}
