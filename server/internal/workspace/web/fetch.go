package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Limits of one fetch. The model may ask for less, never for more.
const (
	DefaultTimeout  = 15 * time.Second
	MaxTimeout      = 60 * time.Second
	MaxBodyBytes    = 5 << 20 // response bytes read, capped while streaming
	MaxRedirects    = 5
	userAgent       = "GoVibe/1 (+https://github.com/govibe/govibe; web_fetch)"
	maxHeaderValues = 20
)

// LookupFunc resolves a host name; tests replace it with a stub resolver.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// Fetcher performs SSRF-checked GET requests. It is safe for concurrent
// use; its limiter is shared by every call so a prompt-injected page cannot
// make the agent fan out.
type Fetcher struct {
	Policy Policy
	Lookup LookupFunc
	// Limiter bounds the request rate (redirects count); nil means the
	// default of 1 request per second with a burst of 8.
	Limiter *rate.Limiter
}

// NewFetcher returns a Fetcher with the system resolver and the default
// rate limit.
func NewFetcher(p Policy) *Fetcher {
	return &Fetcher{Policy: p, Limiter: rate.NewLimiter(rate.Limit(1), 8)}
}

// Request is one fetch.
type Request struct {
	URL     string
	Headers map[string]string
	Cookie  string
	Timeout time.Duration
}

// Response is what came back, body already capped.
type Response struct {
	FinalURL    string
	Status      int
	ContentType string
	Body        []byte
	Truncated   bool // the body passed MaxBodyBytes
	Redirects   int
}

// refusedHeaders may not be set by the model: they would change routing,
// framing or the connection rather than the request.
var refusedHeaders = map[string]bool{
	"host": true, "content-length": true, "transfer-encoding": true, "connection": true,
	"upgrade": true, "te": true, "trailer": true, "proxy-authorization": true, "proxy-connection": true,
}

// Fetch GETs req.URL. Every connection, including each redirect's, goes
// through the checking dialer.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	u, err := url.Parse(strings.TrimSpace(req.URL))
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %v", err)
	}
	if err := f.Policy.CheckURL(u); err != nil {
		return nil, err
	}
	timeout := effectiveTimeout(req.Timeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %v", err)
	}
	hreq.Header.Set("User-Agent", userAgent)
	hreq.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5")
	if len(req.Headers) > maxHeaderValues {
		return nil, fmt.Errorf("at most %d headers may be set", maxHeaderValues)
	}
	for k, v := range req.Headers {
		if refusedHeaders[strings.ToLower(k)] {
			return nil, fmt.Errorf("the %s header cannot be set", k)
		}
		if strings.ContainsAny(k+v, "\r\n") {
			return nil, fmt.Errorf("header %q contains a line break", k)
		}
		hreq.Header.Set(k, v)
	}
	if req.Cookie != "" {
		if strings.ContainsAny(req.Cookie, "\r\n") {
			return nil, errors.New("the cookie contains a line break")
		}
		hreq.Header.Set("Cookie", req.Cookie)
	}
	redirects := 0
	client := &http.Client{
		Transport: f.transport(),
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxRedirects)
			}
			if err := f.Policy.CheckURL(r.URL); err != nil {
				return fmt.Errorf("redirect to %s refused: %w", r.URL.Redacted(), err)
			}
			// A cookie or credential header set for the first host is not
			// forwarded to another host.
			if r.URL.Host != via[0].URL.Host {
				r.Header.Del("Cookie")
				r.Header.Del("Authorization")
			}
			redirects = len(via)
			return f.wait(r.Context())
		},
	}
	resp, err := client.Do(hreq)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("timed out after %s", timeout)
		}
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("timed out after %s while reading the body", timeout)
		}
		return nil, fmt.Errorf("reading the body: %v", err)
	}
	out := &Response{FinalURL: resp.Request.URL.String(), Status: resp.StatusCode, Redirects: redirects}
	if len(body) > MaxBodyBytes {
		body, out.Truncated = body[:MaxBodyBytes], true
	}
	out.Body = body
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		out.ContentType = mt
	} else {
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
		out.ContentType = mt
	}
	return out, nil
}

// effectiveTimeout is the model's timeout within bounds.
func effectiveTimeout(d time.Duration) time.Duration {
	switch {
	case d <= 0:
		return DefaultTimeout
	case d > MaxTimeout:
		return MaxTimeout
	}
	return d
}

func (f *Fetcher) wait(ctx context.Context) error {
	if f.Limiter == nil {
		return nil
	}
	if err := f.Limiter.Wait(ctx); err != nil {
		return errors.New("too many web requests in a short time; wait and try again")
	}
	return nil
}

// transport never uses a proxy: a proxy would resolve names itself, and
// the SSRF check must see the address that is actually dialled.
func (f *Fetcher) transport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           f.dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: MaxTimeout,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
		DisableCompression:    false,
	}
}

// dial resolves host once, refuses the connection if ANY resolved address
// is blocked (a name that points both outside and at loopback is an
// attack, not a fallback), then dials the checked addresses in order.
func (f *Fetcher) dial(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	if _, err := strconv.Atoi(port); err != nil {
		return nil, fmt.Errorf("invalid port %q", port)
	}
	allowed := f.Policy.hostAllowed(host)
	var addrs []netip.Addr
	if a, ok := ParseHostIP(host); ok {
		addrs = []netip.Addr{a}
	} else {
		lookup := f.Lookup
		if lookup == nil {
			lookup = systemLookup
		}
		addrs, err = lookup(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("cannot resolve %s: %v", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("%s has no addresses", host)
		}
	}
	if !allowed {
		for _, a := range addrs {
			if err := f.Policy.CheckAddr(a); err != nil {
				return nil, fmt.Errorf("%s resolves to a refused address: %w; if this host is yours, add it to govibe.web.allowHosts", host, err)
			}
		}
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	var lastErr error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func systemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	out := make([]netip.Addr, 0, len(ips))
	for _, ip := range ips {
		if a, ok := addrOf(ip.IP); ok {
			out = append(out, a)
		}
	}
	return out, nil
}
