package browser

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// proxy is the enforcement layer under the request routing: Chromium sends
// every connection (HTTP requests, HTTPS and WebSocket tunnels, loopback
// included via <-loopback>) through this in-process proxy, which dials with
// the web fetcher's checking dialer. Routing alone misses what Chromium
// does on its own (it follows redirects without asking the route, and it
// resolves names again after the route's check); at dial time nothing is
// missed. HTTPS stays end to end: the proxy only tunnels bytes.
type proxy struct {
	ln    net.Listener
	srv   *http.Server
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	block func(url, msg string)
	tr    *http.Transport
	wg    sync.WaitGroup
}

func startProxy(f *web.Fetcher, block func(url, msg string)) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, block: block}
	self := ln.Addr().String()
	p.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if h, port, _ := net.SplitHostPort(addr); port == portOf(self) && (h == "127.0.0.1" || h == "localhost" || h == "::1") {
			return nil, fmt.Errorf("%w: the browser's own proxy", web.ErrBlocked)
		}
		return f.Dial(ctx, network, addr)
	}
	p.tr = &http.Transport{DialContext: p.dial, Proxy: nil, ForceAttemptHTTP2: false, ResponseHeaderTimeout: 60 * time.Second,
		MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func portOf(hostport string) string {
	_, p, _ := net.SplitHostPort(hostport)
	return p
}

// Addr is the proxy's host:port for --proxy-server.
func (p *proxy) Addr() string { return p.ln.Addr().String() }

func (p *proxy) Close() {
	_ = p.srv.Close()
	p.tr.CloseIdleConnections()
	p.wg.Wait()
}

var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "this is a proxy", http.StatusBadRequest)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		p.refuse(w, r.URL.String(), r.Method+" "+r.URL.String(), err)
		return
	}
	defer resp.Body.Close()
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// tunnel serves CONNECT (HTTPS, wss, ws): dial checked, then copy bytes.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	up, err := p.dial(ctx, "tcp", r.Host)
	cancel()
	if err != nil {
		p.refuse(w, r.Host, "CONNECT "+r.Host, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	_, _ = down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	p.wg.Add(2)
	go func() {
		defer p.wg.Done()
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, down)
		closeWrite(up)
	}()
	go func() {
		defer p.wg.Done()
		_, _ = io.Copy(down, up)
		_ = down.Close()
		_ = up.Close()
	}()
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
		return
	}
	_ = c.Close()
}

func (p *proxy) refuse(w http.ResponseWriter, url, what string, err error) {
	if strings.Contains(err.Error(), web.ErrBlocked.Error()) {
		p.block(url, fmt.Sprintf("blocked %s: %v", clip(what, 200), err))
		http.Error(w, "refused by GoVibe's network policy: "+err.Error(), http.StatusForbidden)
		return
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}
