package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckRequestURL is the whole policy for a URL whose connection someone
// else makes (the browser sub-agent's Chromium): CheckURL, then the host is
// resolved (lookup nil means the system resolver) and every address must
// pass CheckAddr. The other party resolves again when it connects, so a
// rebinding DNS answer between the two lookups is not covered here; the
// fetcher's own dialer has no such window.
func (p Policy) CheckRequestURL(ctx context.Context, lookup LookupFunc, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid URL: %v", err)
	}
	if err := p.CheckURL(u); err != nil {
		return err
	}
	host := u.Hostname()
	if p.hostAllowed(host) {
		return nil
	}
	if _, ok := ParseHostIP(host); ok {
		return nil // CheckURL already checked the literal
	}
	if lookup == nil {
		lookup = systemLookup
	}
	addrs, err := lookup(ctx, host)
	if err != nil {
		return fmt.Errorf("cannot resolve %s: %v", host, err)
	}
	if len(addrs) == 0 {
		return fmt.Errorf("%s has no addresses", host)
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return refusedName{fmt.Errorf("%s resolves to a refused address: %w", host, err)}
		}
	}
	return nil
}

// refusedName is a host name that resolved to a refused address (as
// opposed to a refused literal address or URL).
type refusedName struct{ error }

func (r refusedName) Unwrap() error { return r.error }

// Dial connects to hostport the way Fetch does: the host is resolved once,
// every address must pass the policy (unless the host is allowed by
// name), and only the checked addresses are dialled, so a rebinding DNS
// answer cannot slip through. The browser sub-agent's proxy dials with it.
func (f *Fetcher) Dial(ctx context.Context, network, hostport string) (net.Conn, error) {
	return f.dial(ctx, network, hostport)
}

// Check applies the fetcher's policy to a URL before anyone is asked
// about fetching it (CheckRequestURL with the fetcher's resolver), so a
// confirmation is never shown for a fetch that would be refused anyway.
// Its errors read as Fetch's own. Fetch checks again, on the connection
// it dials.
func (f *Fetcher) Check(ctx context.Context, raw string) error {
	err := f.Policy.CheckRequestURL(ctx, f.Lookup, strings.TrimSpace(raw))
	var named refusedName
	if errors.As(err, &named) {
		return fmt.Errorf("%w; if this host is yours, add it to govibe.web.allowHosts", err)
	}
	return err
}
