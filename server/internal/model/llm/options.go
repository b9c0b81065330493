package llm

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/net/http/httpproxy"
)

// Options tune transport and retry behaviour. Zero values mean defaults.
type Options struct {
	Logger *zap.Logger
	// Proxy is the settings' proxy URL; when empty HTTPS_PROXY/HTTP_PROXY
	// (and NO_PROXY) from the environment apply.
	Proxy string
	// ConnectTimeout bounds the TCP+TLS handshake.
	ConnectTimeout time.Duration
	// IdleTimeout is how long an attempt may go without receiving a byte
	// (including while waiting for response headers) before it is treated as
	// a broken stream and retried.
	IdleTimeout time.Duration
	// MaxAttempts counts the first try; 1 disables retries.
	MaxAttempts int
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// MaxRetryAfter is the longest Retry-After the client will sleep through;
	// a longer one fails at once with RateLimitError.
	MaxRetryAfter time.Duration
	// HTTPClient replaces the client built from Proxy/ConnectTimeout.
	HTTPClient *http.Client
}

const (
	defaultConnectTimeout = 15 * time.Second
	defaultIdleTimeout    = 90 * time.Second
	defaultMaxAttempts    = 5
	defaultBaseBackoff    = 1 * time.Second
	defaultMaxBackoff     = 30 * time.Second
	defaultMaxRetryAfter  = 90 * time.Second
)

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = defaultConnectTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = defaultIdleTimeout
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.BaseBackoff <= 0 {
		o.BaseBackoff = defaultBaseBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = defaultMaxBackoff
	}
	if o.MaxBackoff < o.BaseBackoff {
		o.MaxBackoff = o.BaseBackoff
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = defaultMaxRetryAfter
	}
	return o
}

// proxyFunc resolves the proxy for each request. Loopback and NO_PROXY
// hosts always go direct (httpproxy's rules), so local model servers work
// behind a corporate proxy setting.
func proxyFunc(setting string) (func(*http.Request) (*url.URL, error), error) {
	cfg := httpproxy.FromEnvironment()
	if setting = strings.TrimSpace(setting); setting != "" {
		u, err := url.Parse(setting)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("invalid proxy URL %q: expected e.g. http://proxy.example:3128", setting)
		}
		cfg.HTTPProxy = setting
		cfg.HTTPSProxy = setting
	}
	if cfg.NoProxy == "" {
		cfg.NoProxy = os.Getenv("no_proxy")
	}
	pf := cfg.ProxyFunc()
	return func(r *http.Request) (*url.URL, error) { return pf(r.URL) }, nil
}

func newHTTPClient(o Options) (*http.Client, error) {
	if o.HTTPClient != nil {
		return o.HTTPClient, nil
	}
	proxy, err := proxyFunc(o.Proxy)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 proxy,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	// No client-level Timeout: streams legitimately last minutes; stalls are
	// caught by the per-attempt idle watchdog instead.
	return &http.Client{Transport: tr}, nil
}
