package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURLRefusesInternalLiterals(t *testing.T) {
	var p Policy
	refused := []string{
		"http://127.0.0.1/", "http://127.1/", "http://0.0.0.0/", "http://0/", "http://[::1]/",
		"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://10.1.2.3/", "http://172.16.0.1/",
		"http://172.31.255.255/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/",
		"http://[fd00:ec2::254]/", "http://100.64.0.1/", "http://224.0.0.1/", "http://[fe80::1]/",
		"http://2130706433/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://0x7f000001/",
		"http://017700000001/", "http://[64:ff9b::7f00:1]/", "http://[::]/", "http://127.0.0.1.:8080/",
		"http://3232235777/", "http://0xa9fea9fe/",
		// IPv4 carried in IPv6: mapped (both spellings), SIIT, 6to4, NAT64.
		"http://[::ffff:a9fe:a9fe]/", "http://[::ffff:10.0.0.1]/", "http://[::ffff:0:7f00:1]/",
		"http://[2002:7f00:1::]/", "http://[2002:a9fe:a9fe::1]/", "http://[64:ff9b::a00:1]/",
		"http://[0:0:0:0:0:ffff:127.0.0.1]/",
	}
	for _, s := range refused {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := p.CheckURL(u); !errors.Is(err, ErrBlocked) {
			t.Errorf("%s: want a blocked-address refusal, got %v", s, err)
		}
	}
	for _, s := range []string{"http://93.184.216.34/", "https://example.com/x", "http://[2606:4700::1111]/", "http://8.8.8.8:53/",
		"http://[2002:5db8:d822::1]/", "http://[::ffff:93.184.216.34]/"} {
		u, _ := url.Parse(s)
		if err := p.CheckURL(u); err != nil {
			t.Errorf("%s: want allowed, got %v", s, err)
		}
	}
}

func TestCheckURLRefusesSchemesAndCredentials(t *testing.T) {
	var p Policy
	for _, s := range []string{"file:///etc/passwd", "ftp://example.com/", "gopher://x/", "http://user:pw@example.com/", "http://user@example.com/", "http:///nohost"} {
		u, err := url.Parse(s)
		if err != nil {
			continue
		}
		if err := p.CheckURL(u); err == nil {
			t.Errorf("%s: want refused", s)
		}
	}
}

func TestAllowHostsAndLoopback(t *testing.T) {
	p := Policy{AllowHosts: []string{"Intranet.Corp", "10.0.0.5"}}
	for _, s := range []string{"http://intranet.corp/", "http://10.0.0.5/"} {
		u, _ := url.Parse(s)
		if err := p.CheckURL(u); err != nil {
			t.Errorf("%s: allow-listed, got %v", s, err)
		}
	}
	u, _ := url.Parse("http://10.0.0.6/")
	if err := p.CheckURL(u); err == nil {
		t.Errorf("10.0.0.6 is not allow-listed")
	}
	lp := Policy{AllowLoopback: true}
	if err := lp.CheckAddr(netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Errorf("loopback allowed: %v", err)
	}
	if err := lp.CheckAddr(netip.MustParseAddr("169.254.169.254")); err == nil {
		t.Errorf("allowLocalhost must not open cloud metadata")
	}
}

func TestParseHostIPSpellings(t *testing.T) {
	cases := map[string]string{
		"127.1": "127.0.0.1", "2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1",
		"10.0x10.1": "10.16.0.1", "192.168.257": "192.168.1.1",
	}
	for in, want := range cases {
		a, ok := ParseHostIP(in)
		if !ok || a.String() != want {
			t.Errorf("%s: got %v %v, want %s", in, a, ok, want)
		}
	}
	for _, in := range []string{"example.com", "1.2.3.4.5", "256.1.1.1", "0x", "08.1.1.1", "1..1"} {
		if a, ok := ParseHostIP(in); ok && in != "0x" {
			t.Errorf("%s: parsed as %v, want a name", in, a)
		}
	}
}

// stubLookup is a test resolver: names map to fixed addresses.
func stubLookup(m map[string][]string) LookupFunc {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		ss, ok := m[strings.ToLower(host)]
		if !ok {
			return nil, errors.New("no such host")
		}
		var out []netip.Addr
		for _, s := range ss {
			out = append(out, netip.MustParseAddr(s))
		}
		return out, nil
	}
}

func loopbackServer(t *testing.T, h http.HandlerFunc) (port string) {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	_, port, _ = net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	return port
}

func TestDialRefusesNamesResolvingInternally(t *testing.T) {
	hits := 0
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) { hits++; w.Write([]byte("secret")) })
	f := &Fetcher{Lookup: stubLookup(map[string][]string{
		"evil.test":   {"127.0.0.1"},
		"rebind.test": {"93.184.216.34", "127.0.0.1"},
		"mapped.test": {"::ffff:127.0.0.1"},
	})}
	for _, host := range []string{"evil.test", "rebind.test", "mapped.test"} {
		_, err := f.Fetch(context.Background(), Request{URL: "http://" + host + ":" + port + "/"})
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("%s: want blocked, got %v", host, err)
		}
	}
	if hits != 0 {
		t.Fatalf("the internal server was reached %d times", hits)
	}
}

func TestRedirectToLoopbackRefused(t *testing.T) {
	internalHits := 0
	internal := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) { internalHits++ })
	var front string
	front = loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/literal":
			http.Redirect(w, r, "http://127.0.0.1:"+internal+"/", http.StatusFound)
		case "/name":
			http.Redirect(w, r, "http://evil.test:"+internal+"/", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			w.Write([]byte("ok"))
		}
	})
	f := &Fetcher{
		Policy: Policy{AllowHosts: []string{"public.test"}},
		Lookup: stubLookup(map[string][]string{"public.test": {"127.0.0.1"}, "evil.test": {"127.0.0.1"}}),
	}
	base := "http://public.test:" + front
	if r, err := f.Fetch(context.Background(), Request{URL: base + "/plain"}); err != nil || string(r.Body) != "ok" {
		t.Fatalf("allow-listed host: %v %v", r, err)
	}
	for _, path := range []string{"/literal", "/name"} {
		if _, err := f.Fetch(context.Background(), Request{URL: base + path}); !errors.Is(err, ErrBlocked) {
			t.Errorf("%s: want the redirect blocked, got %v", path, err)
		}
	}
	if _, err := f.Fetch(context.Background(), Request{URL: base + "/loop"}); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Errorf("redirect loop: want stopped after %d redirects, got %v", MaxRedirects, err)
	}
	if internalHits != 0 {
		t.Fatalf("a redirect reached the internal server")
	}
}
