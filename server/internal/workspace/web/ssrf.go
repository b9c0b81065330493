package web

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// blocked lists every range a fetch may never reach unless the host is on
// the allow list: loopback, private, link-local (cloud metadata lives at
// 169.254.169.254), CGNAT, multicast, unspecified, reserved and
// documentation ranges, and their IPv6 counterparts (fd00:ec2::254 is in
// fc00::/7).
var blocked = mustPrefixes(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16",
	"198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
	"::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
	"2001:db8::/32", "100::/64",
)

// embedsV4 are IPv6 ranges that carry an IPv4 address in their low 32 bits
// (NAT64, SIIT's IPv4-translated ::ffff:0:a.b.c.d, and the deprecated
// IPv4-compatible form); the embedded address is checked as well.
var embedsV4 = mustPrefixes("64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0:0/96")

// sixToFour (2002::/16) carries an IPv4 address in bits 16-47: a relay
// would deliver 2002:7f00:1:: to 127.0.0.1's network.
var sixToFour = netip.MustParsePrefix("2002::/16")

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// ErrBlocked is wrapped by every refusal of the SSRF policy.
var ErrBlocked = errors.New("blocked address")

// Policy decides which hosts and addresses a fetch may reach. The zero
// value refuses every internal address. Policy is immutable after
// construction and safe for concurrent use.
type Policy struct {
	// AllowHosts are host names or IP literals (lower case, no port) the
	// user permitted even though they resolve to internal addresses.
	AllowHosts []string
	// AllowLoopback permits 127.0.0.0/8 and ::1 (the browser sub-agent's
	// allowLocalhost, for testing the user's own dev server).
	AllowLoopback bool
}

func (p Policy) hostAllowed(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, h := range p.AllowHosts {
		if strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".") == host {
			return true
		}
	}
	return false
}

// CheckAddr refuses an address in a blocked range. IPv4-mapped IPv6
// (::ffff:127.0.0.1) is unmapped first, and NAT64 forms are checked by
// their embedded IPv4 address.
func (p Policy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	if !a.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrBlocked)
	}
	if p.AllowLoopback && a.IsLoopback() {
		return nil
	}
	if a.Is6() {
		for _, pre := range embedsV4 {
			if pre.Contains(a) && a != netip.IPv6Unspecified() && a != netip.IPv6Loopback() {
				b := a.As16()
				v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
				if err := p.CheckAddr(v4); err != nil {
					return fmt.Errorf("%w (embedded in %s)", err, a)
				}
			}
		}
		if sixToFour.Contains(a) {
			b := a.As16()
			if err := p.CheckAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})); err != nil {
				return fmt.Errorf("%w (embedded in the 6to4 address %s)", err, a)
			}
		}
	}
	for _, pre := range blocked {
		if pre.Contains(a) {
			return &BlockedError{Addr: a, Range: pre, Kind: rangeName(pre)}
		}
	}
	return nil
}

// BlockedError is CheckAddr's refusal: the address and the blocked range
// that holds it, so a caller (the sandbox's network proxy) can name the
// kind of address without parsing the message. For an address that embeds
// an IPv4 address, Addr is the embedded one and the error is wrapped.
type BlockedError struct {
	Addr  netip.Addr
	Range netip.Prefix
	// Kind is "loopback", "private network", "link-local, cloud metadata",
	// "multicast", "unspecified", "carrier-grade NAT" or "reserved".
	Kind string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%v: %s is in %s (%s)", ErrBlocked, e.Addr, e.Range, e.Kind)
}

// Unwrap makes errors.Is(err, ErrBlocked) hold.
func (e *BlockedError) Unwrap() error { return ErrBlocked }

func rangeName(p netip.Prefix) string {
	switch a := p.Addr(); {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private network"
	case a.IsLinkLocalUnicast() || a == netip.MustParseAddr("169.254.0.0"):
		return "link-local, cloud metadata"
	case a.IsMulticast():
		return "multicast"
	case a.IsUnspecified():
		return "unspecified"
	case p == netip.MustParsePrefix("100.64.0.0/10"):
		return "carrier-grade NAT"
	}
	return "reserved"
}

// CheckURL validates the parts of a URL that need no network: the scheme is
// http or https, there are no credentials, and a host literal (in any of
// the spellings inet_aton accepts: decimal 2130706433, octal 0177.0.0.1,
// hex 0x7f.1, short 127.1) is not a blocked address.
func (p Policy) CheckURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs can be fetched, not %q", u.Scheme)
	}
	if u.User != nil {
		return errors.New("URLs with credentials (user:password@host) are refused; pass an Authorization header instead")
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("the URL has no host")
	}
	if p.hostAllowed(host) {
		return nil
	}
	if a, ok := ParseHostIP(host); ok {
		return p.CheckAddr(a)
	}
	return nil
}

// ParseHostIP parses host as an IP literal, including the legacy numeric
// spellings that resolvers built on inet_aton accept. A host that is not
// numeric returns false and must be resolved.
func ParseHostIP(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(host, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, s := range parts {
		v, err := parseInetPart(s)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	// inet_aton: a.b.c.d; a.b.c (c is 16 bits); a.b (b is 24 bits); a (32 bits).
	var n uint64
	last := len(vals) - 1
	for i := 0; i < last; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false
		}
		n |= vals[i] << (24 - 8*uint(i))
	}
	if vals[last] >= 1<<(32-8*uint(last)) {
		return netip.Addr{}, false
	}
	n |= vals[last]
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

func parseInetPart(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
		if s == "" {
			return 0, nil
		}
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	return strconv.ParseUint(s, base, 32)
}

// addrOf converts a resolved net.IP.
func addrOf(ip net.IP) (netip.Addr, bool) {
	a, ok := netip.AddrFromSlice(ip)
	return a.Unmap(), ok
}
