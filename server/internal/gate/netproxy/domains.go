package netproxy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// MatchDomain reports whether host matches pattern. "example.com" matches
// example.com only; "*.example.com" matches every name under example.com
// (sub.example.com, a.b.example.com) but not example.com itself. Both are
// compared case-insensitively with a trailing dot ignored. An empty
// pattern, a bare "*", or a "*" anywhere but a leading "*." label matches
// nothing: a malformed allowlist entry must not widen the allowlist.
func MatchDomain(pattern, host string) bool {
	pattern = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(pattern)), ".")
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || ValidatePattern(pattern) != nil {
		return false
	}
	if rest, ok := strings.CutPrefix(pattern, "*."); ok {
		if _, isIP := web.ParseHostIP(host); isIP {
			return false // *.0.1 must not match 10.0.0.1
		}
		return strings.HasSuffix(host, "."+rest) && len(host) > len(rest)+1
	}
	return host == pattern
}

// ValidatePattern says what is wrong with an allowlist entry, for the
// settings to report: MatchDomain ignores entries this refuses.
func ValidatePattern(pattern string) error {
	p := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(pattern)), ".")
	if p == "" {
		return errors.New("empty domain")
	}
	rest, wild := strings.CutPrefix(p, "*.")
	if strings.Contains(rest, "*") {
		return fmt.Errorf("%q: a wildcard is allowed only as a leading \"*.\"", pattern)
	}
	if wild && !strings.Contains(rest, ".") {
		return fmt.Errorf("%q: a wildcard needs at least two labels after it (*.example.com, not *.com)", pattern)
	}
	if _, isIP := web.ParseHostIP(rest); wild && isIP {
		return fmt.Errorf("%q: a wildcard applies to domain names, not IP addresses", pattern)
	}
	if _, _, err := normalizeHost(rest); err != nil {
		return fmt.Errorf("%q: %v", pattern, err)
	}
	return nil
}

// Domains returns a Decider that allows a host matching any of patterns
// (MatchDomain). The patterns are copied.
func Domains(patterns ...string) Decider {
	ps := append([]string(nil), patterns...)
	return func(host string) bool {
		for _, p := range ps {
			if MatchDomain(p, host) {
				return true
			}
		}
		return false
	}
}

// DefaultRegistries are the public package registries package managers use
// by default: npm; PyPI's index and files; the Go module proxy and checksum
// database (not storage.googleapis.com, which serves far more than Go
// modules); crates.io's API, index and downloads. It returns a fresh slice.
func DefaultRegistries() []string {
	return []string{
		"registry.npmjs.org",
		"pypi.org", "files.pythonhosted.org",
		"proxy.golang.org", "sum.golang.org",
		"crates.io", "static.crates.io", "index.crates.io",
	}
}
