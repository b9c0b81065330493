package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// Decider decides a destination host (a domain name or an IP literal, no
// port). It is consulted per connection, possibly from several goroutines at
// once.
type Decider func(host string) bool

// Refusal is reported for each refused connection.
type Refusal struct {
	Host   string
	Port   int
	Reason string // "not in the allowed domains", "private network address 10.0.0.1 (10.0.0.0/8)", ...
}

// ReasonNotAllowed is the Reason of a host the Decider refused.
const ReasonNotAllowed = "not in the allowed domains"

// refusedError is a connection the policy refused, as opposed to one that
// failed (a name that does not resolve, a port nobody listens on).
type refusedError struct{ reason string }

func (e *refusedError) Error() string { return "refused: " + e.reason }

// lookupFunc resolves a host name; tests replace it with a stub resolver.
type lookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

func systemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// normalizeHost returns the form of host that the Decider sees and the
// dialer uses: an IP literal (any spelling inet_aton accepts, brackets and
// zone dropped) in canonical form, or a lower-case domain name without its
// trailing dot made only of letters, digits, '-' and '_' in labels of 1 to
// 63 bytes. Anything else is refused as invalid, so a Decider or a log
// never sees control characters, paths or user@ parts.
func normalizeHost(host string) (name string, ip netip.Addr, err error) {
	if host == "" {
		return "", netip.Addr{}, errors.New("empty host")
	}
	if len(host) > 255 {
		return "", netip.Addr{}, fmt.Errorf("host name of %d bytes (at most 253)", len(host))
	}
	if a, ok := web.ParseHostIP(host); ok {
		a = a.Unmap().WithZone("")
		return a.String(), a, nil
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "" || len(h) > 253 {
		return "", netip.Addr{}, fmt.Errorf("invalid host name %q", clip(host))
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return "", netip.Addr{}, fmt.Errorf("invalid host name %q", clip(host))
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", netip.Addr{}, fmt.Errorf("invalid host name %q", clip(host))
			}
		}
	}
	return h, netip.Addr{}, nil
}

// parsePort accepts a decimal port from 1 to 65535.
func parsePort(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 || s[0] == '+' {
		return 0, fmt.Errorf("invalid port %q", clip(s))
	}
	return n, nil
}

// clip bounds what a message quotes from the client.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// blockedReason words a refused address for Refusal.Reason, for example
// "private network address 10.1.2.3 (10.0.0.0/8)".
func blockedReason(a netip.Addr, err error) string {
	var be *web.BlockedError
	if !errors.As(err, &be) {
		return fmt.Sprintf("address %s: %v", a, err)
	}
	r := fmt.Sprintf("%s address %s (%s)", be.Kind, be.Addr, be.Range)
	if be.Addr != a.Unmap() {
		r += ", embedded in " + a.String()
	}
	return r
}

// dial connects to host (already normalized) and port for one client
// connection: the Decider first, then one resolution, then every address
// must pass the address check, then only the checked addresses are dialled.
// A refusal is returned as *refusedError.
func (p *Proxy) dial(ctx context.Context, host string, ip netip.Addr, port int) (net.Conn, error) {
	if !p.allow(host) {
		return nil, &refusedError{ReasonNotAllowed}
	}
	ctx, cancel := context.WithTimeout(ctx, p.opts.dialTimeout)
	defer cancel()
	addrs := []netip.Addr{ip}
	if !ip.IsValid() {
		var err error
		addrs, err = p.opts.lookup(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("cannot resolve %s: %w", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("%s has no addresses", host)
		}
	}
	// Every answer must pass, not just the first: a client must not be
	// able to pick a private one from a mixed answer.
	for _, a := range addrs {
		if err := p.opts.checkAddr(a); err != nil {
			reason := blockedReason(a, err)
			if !ip.IsValid() {
				reason = host + " resolves to " + reason
			}
			return nil, &refusedError{reason}
		}
	}
	d := net.Dialer{
		// The dialled addresses are literals, so nothing resolves again;
		// this re-checks what the socket actually connects to, in case a
		// later change ever lets a name through.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &refusedError{"unparsable dial address " + address}
			}
			if err := p.opts.checkAddr(ap.Addr()); err != nil {
				return &refusedError{blockedReason(ap.Addr(), err)}
			}
			return nil
		},
	}
	var lastErr error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), uint16(port)).String())
		if err == nil {
			return c, nil
		}
		var re *refusedError
		if errors.As(err, &re) {
			return nil, re
		}
		lastErr = err
	}
	return nil, fmt.Errorf("cannot connect to %s port %d: %w", host, port, lastErr)
}

// defaultDialTimeout bounds resolution plus connection for one destination.
const defaultDialTimeout = 15 * time.Second
