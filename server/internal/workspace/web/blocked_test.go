package web

import (
	"errors"
	"net/netip"
	"testing"
)

// TestBlockedErrorNamesTheRange: CheckAddr's refusal carries the address,
// the range and its kind, reads as before, and still matches ErrBlocked,
// also when the address is embedded in a NAT64 one.
func TestBlockedErrorNamesTheRange(t *testing.T) {
	for _, tt := range []struct{ addr, want, kind, msg string }{
		{"10.1.2.3", "10.1.2.3", "private network", "blocked address: 10.1.2.3 is in 10.0.0.0/8 (private network)"},
		{"64:ff9b::7f00:1", "127.0.0.1", "loopback", "blocked address: 127.0.0.1 is in 127.0.0.0/8 (loopback) (embedded in 64:ff9b::7f00:1)"},
	} {
		err := Policy{}.CheckAddr(netip.MustParseAddr(tt.addr))
		var be *BlockedError
		if !errors.As(err, &be) || !errors.Is(err, ErrBlocked) {
			t.Fatalf("%s: err %v; want a BlockedError wrapping ErrBlocked", tt.addr, err)
		}
		if be.Addr.String() != tt.want || be.Kind != tt.kind || err.Error() != tt.msg {
			t.Errorf("%s: got %s %q %q; want %s %q %q", tt.addr, be.Addr, be.Kind, err, tt.want, tt.kind, tt.msg)
		}
	}
}
