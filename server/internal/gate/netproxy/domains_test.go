package netproxy

import (
	"net/netip"
	"slices"
	"testing"
)

func TestMatchDomain(t *testing.T) {
	for _, tt := range []struct {
		pattern, host string
		want          bool
	}{
		{"example.com", "example.com", true},
		{"example.com", "EXAMPLE.com", true},
		{"Example.COM.", "example.com", true},
		{"example.com", "example.com.", true},
		{"example.com", "sub.example.com", false},
		{"example.com", "notexample.com", false},
		{"example.com", "example.com.evil.test", false},
		{"*.example.com", "sub.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "SUB.Example.Com.", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "badexample.com", false},
		{"*.example.com", ".example.com", false},
		{"*.example.com", "example.com.evil.test", false},
		{" registry.npmjs.org ", "registry.npmjs.org", true},
		{"10.0.0.1", "10.0.0.1", true},
		{"*.0.1", "10.0.0.1", false},
		{"*.0.0.1", "10.0.0.1", false},
		{"", "example.com", false},
		{"*", "example.com", false},
		{"*.", "example.com", false},
		{"*.com", "example.com", false},
		{"ex*.com", "example.com", false},
		{"*.*.example.com", "a.b.example.com", false},
		{"example.com", "", false},
		{"exa mple.com", "exa mple.com", false},
	} {
		if got := MatchDomain(tt.pattern, tt.host); got != tt.want {
			t.Errorf("MatchDomain(%q, %q) = %v; want %v", tt.pattern, tt.host, got, tt.want)
		}
	}
}

func TestValidatePattern(t *testing.T) {
	for _, ok := range []string{"example.com", "*.example.com", "*.co.uk", "10.0.0.1", "localhost"} {
		if err := ValidatePattern(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "*", "*.com", "ex*.com", "a.*.com", "*.10.0.0.1", "https://example.com", "example.com:443", "a..b"} {
		if err := ValidatePattern(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDomainsDecider(t *testing.T) {
	patterns := []string{"pypi.org", "*.example.com"}
	d := Domains(patterns...)
	patterns[0] = "evil.test" // the Decider keeps its own copy
	for host, want := range map[string]bool{"pypi.org": true, "a.example.com": true, "evil.test": false, "example.com": false} {
		if d(host) != want {
			t.Errorf("%s: %v", host, !want)
		}
	}
}

func TestDefaultRegistries(t *testing.T) {
	got := DefaultRegistries()
	want := []string{"registry.npmjs.org", "pypi.org", "files.pythonhosted.org", "proxy.golang.org", "sum.golang.org",
		"crates.io", "static.crates.io", "index.crates.io"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q", got)
	}
	if slices.Contains(got, "storage.googleapis.com") {
		t.Error("storage.googleapis.com is in the defaults")
	}
	got[0] = "evil.test"
	if DefaultRegistries()[0] != "registry.npmjs.org" {
		t.Error("DefaultRegistries shares its slice")
	}
}

// TestNormalizeHost: what the Decider sees, whatever the client's spelling.
func TestNormalizeHost(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Example.COM.", "example.com"},
		{"0x7f.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"[::1]", "::1"},
		{"::FFFF:10.0.0.1", "10.0.0.1"},
		{"fe80::1%eth0", "fe80::1"},
		{"_dmarc.example.com", "_dmarc.example.com"},
	} {
		got, ip, err := normalizeHost(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%q: %q %v; want %q", tt.in, got, err, tt.want)
		}
		if a, perr := netip.ParseAddr(got); perr == nil && a != ip {
			t.Errorf("%q: ip %v; want %v", tt.in, ip, a)
		}
	}
	for _, bad := range []string{"", ".", "a..b", "a b", "a/b", "u@h", "h\x00", "a%2eb", string(make([]byte, 300))} {
		if _, _, err := normalizeHost(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
