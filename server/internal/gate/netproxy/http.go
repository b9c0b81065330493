package netproxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// head is one parsed request head: a CONNECT tunnel or an absolute-form
// plain HTTP request, with its destination already validated.
type head struct {
	req     *http.Request
	connect bool
	host    string     // normalized: what the Decider sees
	ip      netip.Addr // set when host is an IP literal
	port    int
}

// badRequest is a head the proxy answers with a 4xx status.
type badRequest struct {
	status int
	msg    string
}

func (e *badRequest) Error() string { return e.msg }

// readHead reads and validates one request head from br. The caller bounds
// the bytes br may take from the connection (capReader) and the time.
func readHead(br *bufio.Reader) (*head, error) {
	req, err := http.ReadRequest(br)
	if err != nil {
		if errors.Is(err, errHeadTooLarge) {
			return nil, &badRequest{http.StatusRequestHeaderFieldsTooLarge, "the request head is over 16 KiB"}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isTimeout(err) || errors.Is(err, net.ErrClosed) {
			return nil, err // the client went away or went silent: nobody to answer
		}
		return nil, &badRequest{http.StatusBadRequest, "malformed request: " + clip(err.Error())}
	}
	if req.ProtoMajor != 1 {
		return nil, &badRequest{http.StatusHTTPVersionNotSupported, "only HTTP/1 is proxied"}
	}
	h := &head{req: req}
	var hostport string
	if req.Method == http.MethodConnect {
		// Authority form (RFC 9110 §9.3.6): host:port and nothing else.
		h.connect = true
		hostport = req.RequestURI
	} else {
		if req.URL.Scheme != "http" || req.URL.Host == "" {
			return nil, &badRequest{http.StatusBadRequest, "this is a proxy: send CONNECT host:port, or an absolute http:// URL"}
		}
		if req.URL.User != nil {
			return nil, &badRequest{http.StatusBadRequest, "URLs with credentials are refused"}
		}
		hostport = req.URL.Host
		if req.URL.Port() == "" {
			hostport = net.JoinHostPort(req.URL.Hostname(), "80")
		}
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, &badRequest{http.StatusBadRequest, fmt.Sprintf("invalid destination %q: want host:port", clip(hostport))}
	}
	if h.port, err = parsePort(port); err != nil {
		return nil, &badRequest{http.StatusBadRequest, err.Error()}
	}
	if h.host, h.ip, err = normalizeHost(host); err != nil {
		return nil, &badRequest{http.StatusBadRequest, err.Error()}
	}
	return h, nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// serveHTTP answers request heads until the client closes, a CONNECT turns
// the connection into a tunnel, or a response ends the connection.
func (p *Proxy) serveHTTP(c net.Conn, br *bufio.Reader, cr *capReader) {
	for {
		cr.left = maxHead
		_ = c.SetReadDeadline(time.Now().Add(p.opts.headTimeout))
		h, err := readHead(br)
		var bad *badRequest
		if errors.As(err, &bad) {
			writeStatus(c, bad.status, bad.msg)
			return
		}
		if err != nil {
			return
		}
		_ = c.SetReadDeadline(time.Time{})
		cr.left = -1
		if h.connect {
			p.tunnelHTTP(c, br, h)
			return
		}
		if !p.forwardHTTP(c, br, h) {
			return
		}
	}
}

// tunnelHTTP answers CONNECT and pipes the tunnel. Bytes the client sent
// after the head without waiting for the answer are still in br and go
// through first.
func (p *Proxy) tunnelHTTP(c net.Conn, br *bufio.Reader, h *head) {
	up, err := p.connectUpstream(h.host, h.ip, h.port)
	if err != nil {
		writeDialError(c, h, err)
		return
	}
	defer p.untrack(up)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	pipe(c, br, up)
}

// hopHeaders are meaningful for one hop only (RFC 9110 §7.6.1) and are never
// forwarded; headers named in Connection are dropped as well.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHopHeaders(hd http.Header) {
	for _, v := range hd.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				hd.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		hd.Del(name)
	}
}

// forwardHTTP sends one plain request upstream on a fresh connection and
// relays the response. It reports whether the client connection may carry
// another request.
func (p *Proxy) forwardHTTP(c net.Conn, br *bufio.Reader, h *head) bool {
	req := h.req
	up, err := p.connectUpstream(h.host, h.ip, h.port)
	if err != nil {
		writeDialError(c, h, err)
		return false
	}
	defer p.untrack(up)
	clientClose := req.Close
	removeHopHeaders(req.Header)
	// The Host header is the URL's authority: a different Host sent to an
	// allowed address would reach another site behind the same front.
	req.Host = req.URL.Host
	req.RequestURI = ""
	req.Close = true // one upstream connection per request
	if err := req.Write(up); err != nil {
		writeStatus(c, http.StatusBadGateway, "cannot send the request to "+h.host+": "+clip(err.Error()))
		return false
	}
	upr := bufio.NewReader(up)
	for {
		resp, err := http.ReadResponse(upr, req)
		if err != nil {
			writeStatus(c, http.StatusBadGateway, "no valid response from "+h.host+": "+clip(err.Error()))
			return false
		}
		informational := resp.StatusCode >= 100 && resp.StatusCode < 200
		if resp.StatusCode == http.StatusSwitchingProtocols {
			// Upgrade is hop-by-hop and was removed, so a 101 is a broken
			// server; there is no protocol to switch to here.
			_ = resp.Body.Close()
			writeStatus(c, http.StatusBadGateway, "unexpected 101 from "+h.host)
			return false
		}
		removeHopHeaders(resp.Header)
		// The client's connection stays open when it asked so and the
		// body has a length; Response.Write adds "Connection: close"
		// otherwise.
		keep := !clientClose && (resp.ContentLength >= 0 || len(resp.TransferEncoding) > 0)
		resp.Proto, resp.ProtoMajor, resp.ProtoMinor = "HTTP/1.1", 1, 1
		resp.Close = !keep
		err = resp.Write(c)
		_ = resp.Body.Close()
		if err != nil {
			return false
		}
		if !informational {
			return keep
		}
	}
}

// writeDialError answers a failed or refused CONNECT or plain request.
func writeDialError(c net.Conn, h *head, err error) {
	var re *refusedError
	if errors.As(err, &re) {
		writeStatus(c, http.StatusForbidden, fmt.Sprintf("govibe sandbox refused %s: %s", net.JoinHostPort(h.host, fmt.Sprint(h.port)), re.reason))
		return
	}
	writeStatus(c, http.StatusBadGateway, clip2(err.Error()))
}

// clip2 bounds an upstream error for a response body.
func clip2(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// writeStatus writes a complete response with a one-line text body and
// asks the client to close.
func writeStatus(c net.Conn, status int, line string) {
	line = strings.ReplaceAll(line, "\n", " ") + "\n"
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(line), line)
	_ = c.SetWriteDeadline(time.Time{})
}
