package osbox

import (
	"strings"
	"testing"
)

// The macOS profile states the same policy: default deny, reads allowed,
// writes only to the private temp folder, the caches and (when granted)
// the roots, the protected paths denied after the roots, secrets denied
// for reading, no network but the proxy's socket, no other processes.
func TestSeatbeltProfileFromThePolicy(t *testing.T) {
	p := Policy{Roots: []string{"/Users/ada/ws"}, Access: ReadOnly, Home: "/Users/ada", Caches: []string{"/Users/ada/Library/Caches/go-build"},
		Mask: []string{"/Users/ada/private \"x\""}}
	ro := SeatbeltProfile(p, "/private/tmp/gv")
	for _, want := range []string{
		"(version 1)\n(deny default)\n",
		"(allow file-read*)\n",
		`(allow file-write* (subpath "/private/tmp/gv"))`,
		`(allow file-write* (subpath "/Users/ada/Library/Caches/go-build"))`,
		`(deny file-read* file-write* (subpath "/Users/ada/.ssh"))`,
		`(deny file-read* file-write* (subpath "/Users/ada/private \"x\""))`,
		`(deny file-read* (regex "^/Users/ada/ws/(.*/)?\\.env(\\..*)?$"))`,
		"(deny network*)\n",
		"(deny process-info* (target others))",
	} {
		if !strings.Contains(ro, want) {
			t.Errorf("read-only profile lacks %s:\n%s", want, ro)
		}
	}
	if strings.Contains(ro, `(allow file-write* (subpath "/Users/ada/ws"))`) || strings.Contains(ro, "network-outbound") {
		t.Fatalf("read-only profile grants the workspace or the network:\n%s", ro)
	}
	p.Access, p.Network = WorkspaceWrite, &Network{Proxy: "/private/tmp/gv/proxy.sock", Domains: []string{"example.com"}}
	rw := SeatbeltProfile(p, "/private/tmp/gv")
	grant := strings.Index(rw, `(allow file-write* (subpath "/Users/ada/ws"))`)
	deny := strings.Index(rw, `(deny file-write* (subpath "/Users/ada/ws/.git"))`)
	if grant < 0 || deny < grant {
		t.Fatalf("the roots must be granted and .git denied after them (last rule wins):\n%s", rw)
	}
	net := strings.Index(rw, `(allow network-outbound (remote unix-socket (path-literal "/private/tmp/gv/proxy.sock")))`)
	if net < 0 || net < strings.Index(rw, "(deny network*)") {
		t.Fatalf("the proxy socket must be allowed after the network denial:\n%s", rw)
	}
	p.GitWrite = true
	if strings.Contains(SeatbeltProfile(p, "/t"), `/ws/.git"`) {
		t.Fatal("GitWrite must leave .git writable")
	}
}
