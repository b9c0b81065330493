package web

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestCheckRequestURL(t *testing.T) {
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "rebind.test":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("127.0.0.1")}, nil
		case "localhost":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}, nil
		case "public.test":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
		}
		return nil, errors.New("no such host")
	}
	ctx := context.Background()
	strict, loop := Policy{}, Policy{AllowLoopback: true}
	for _, c := range []struct {
		p    Policy
		url  string
		want string // "" = allowed
	}{
		{strict, "https://public.test/x", ""},
		{strict, "http://rebind.test/", "refused address"},
		{strict, "http://localhost:8080/", "loopback"},
		{loop, "http://localhost:8080/", ""},
		{loop, "http://127.0.0.1:9/", ""},
		{loop, "http://169.254.169.254/latest/meta-data", "link-local"},
		{loop, "http://10.0.0.1/", "private"},
		{strict, "http://0177.0.0.1/", "loopback"},
		{strict, "file:///etc/passwd", "only http and https"},
		{strict, "http://u:p@public.test/", "credentials"},
		{strict, "http://nowhere.test/", "cannot resolve"},
		{Policy{AllowHosts: []string{"rebind.test"}}, "http://rebind.test/", ""},
	} {
		err := c.p.CheckRequestURL(ctx, lookup, c.url)
		if c.want == "" && err != nil {
			t.Errorf("%s: refused: %v", c.url, err)
		}
		if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", c.url, err, c.want)
		}
	}
}

// Check refuses what Fetch refuses, in Fetch's words: a name resolving
// to a loopback address names the allowHosts setting.
func TestFetcherCheckSpeaksLikeFetch(t *testing.T) {
	f := &Fetcher{Lookup: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}}
	err := f.Check(context.Background(), "http://intranet.example/x")
	if err == nil || !strings.Contains(err.Error(), "resolves to a refused address") || !strings.Contains(err.Error(), "govibe.web.allowHosts") || !errors.Is(err, ErrBlocked) {
		t.Fatalf("named loopback: %v", err)
	}
	if err := f.Check(context.Background(), "ftp://x.example/"); err == nil || !strings.Contains(err.Error(), "only http and https") {
		t.Fatalf("scheme: %v", err)
	}
	f.Policy.AllowHosts = []string{"intranet.example"}
	if err := f.Check(context.Background(), "http://intranet.example/x"); err != nil {
		t.Fatalf("allowed host: %v", err)
	}
}
