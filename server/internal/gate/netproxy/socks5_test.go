package netproxy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// socksDomain and socksIP build DST.ADDR with its ATYP byte.
func socksDomain(name string) []byte {
	return append([]byte{socksAtypDomain, byte(len(name))}, name...)
}

func socksIP(a netip.Addr) []byte {
	if a.Is4() {
		b := a.As4()
		return append([]byte{socksAtypIPv4}, b[:]...)
	}
	b := a.As16()
	return append([]byte{socksAtypIPv6}, b[:]...)
}

// socksConnect runs the no-auth handshake and a CONNECT, and returns the
// reply code; the reply's BND address is read and checked for shape.
func socksConnect(t *testing.T, c net.Conn, addr []byte, port uint16) byte {
	t.Helper()
	return socksCommand(t, c, socksCmdConnect, addr, port)
}

func socksCommand(t *testing.T, c net.Conn, cmd byte, addr []byte, port uint16) byte {
	t.Helper()
	if _, err := c.Write([]byte{5, 1, socksNoAuth}); err != nil {
		t.Fatal(err)
	}
	var sel [2]byte
	if _, err := io.ReadFull(c, sel[:]); err != nil || sel != [2]byte{5, 0} {
		t.Fatalf("method selection %v, %v", sel, err)
	}
	req := append([]byte{5, cmd, 0}, addr...)
	req = binary.BigEndian.AppendUint16(req, port)
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	var rep [10]byte
	if _, err := io.ReadFull(c, rep[:]); err != nil {
		t.Fatalf("reading the reply: %v", err)
	}
	if rep[0] != 5 || rep[2] != 0 || rep[3] != socksAtypIPv4 {
		t.Fatalf("malformed reply % x", rep)
	}
	return rep[1]
}

// TestSOCKS5Connect: CONNECT by domain name, IPv4 and IPv6 address reaches
// the server, and the tunnel carries a half-close both ways.
func TestSOCKS5Connect(t *testing.T) {
	echo4 := echoServer(t, "tcp", "127.0.0.1:0")
	opts, _ := loopbackOpts(map[string][]string{"allowed.test": {"127.0.0.1"}})
	p, _ := start(t, Domains("allowed.test", "127.0.0.1", "::1"), opts)
	cases := []struct {
		name string
		addr []byte
		port uint16
	}{
		{"domain", socksDomain("allowed.test"), echo4.Port()},
		{"IPv4", socksIP(echo4.Addr()), echo4.Port()},
	}
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		ln.Close()
		echo6 := echoServer(t, "tcp", "[::1]:0")
		cases = append(cases, struct {
			name string
			addr []byte
			port uint16
		}{"IPv6", socksIP(echo6.Addr()), echo6.Port()})
	} else {
		t.Logf("no IPv6 loopback here, IPv6 tunnel not tried: %v", err)
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			c := dialUnix(t, p.Path())
			if rep := socksConnect(t, c, tt.addr, tt.port); rep != socksSucceeded {
				t.Fatalf("reply %#x", rep)
			}
			echoRoundTrip(t, c, c, "socks "+tt.name)
		})
	}
}

// TestSOCKS5Replies: each failure gets its RFC 1928 reply code, and only
// policy refusals are reported.
func TestSOCKS5Replies(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := netip.MustParseAddrPort(closed.Addr().String()).Port()
	closed.Close()

	opts, _ := loopbackOpts(nil)
	p, rs := start(t, func(h string) bool { return h != "denied.test" }, opts)
	for _, tt := range []struct {
		name    string
		cmd     byte
		addr    []byte
		port    uint16
		want    byte
		refused string
	}{
		{"not allowed by the Decider", socksCmdConnect, socksDomain("denied.test"), 443, socksNotAllowed, ReasonNotAllowed},
		{"BIND", 0x02, socksDomain("a.test"), 443, socksCommandNotSupported, ""},
		{"UDP ASSOCIATE", 0x03, socksIP(netip.MustParseAddr("0.0.0.0")), 0, socksCommandNotSupported, ""},
		{"unknown address type", socksCmdConnect, []byte{0x05, 1, 2, 3, 4}, 443, socksAtypNotSupported, ""},
		{"port 0", socksCmdConnect, socksDomain("a.test"), 0, socksGeneralFailure, ""},
		{"empty domain", socksCmdConnect, socksDomain(""), 443, socksGeneralFailure, ""},
		{"domain with a slash", socksCmdConnect, socksDomain("a.test/x"), 443, socksGeneralFailure, ""},
		{"name does not resolve", socksCmdConnect, socksDomain("nowhere.test"), 443, socksHostUnreachable, ""},
		{"connection refused", socksCmdConnect, socksIP(netip.MustParseAddr("127.0.0.1")), closedPort, socksConnectionRefused, ""},
		{"private IPv4", socksCmdConnect, socksIP(netip.MustParseAddr("10.9.8.7")), 80, socksNotAllowed, "private network address 10.9.8.7"},
		{"metadata IPv6", socksCmdConnect, socksIP(netip.MustParseAddr("fd00:ec2::254")), 80, socksNotAllowed, "private network address fd00:ec2::254"},
		{"IPv4 as a domain", socksCmdConnect, socksDomain("169.254.169.254"), 80, socksNotAllowed, "link-local, cloud metadata address 169.254.169.254"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := dialUnix(t, p.Path())
			if rep := socksCommand(t, c, tt.cmd, tt.addr, tt.port); rep != tt.want {
				t.Fatalf("reply %#x; want %#x", rep, tt.want)
			}
			if rest := readAll(t, c); rest != "" {
				t.Errorf("after a failure reply the proxy sent %q; want a close", rest)
			}
			if tt.refused == "" {
				return
			}
			if r := rs.next(t); !strings.Contains(r.Reason, tt.refused) || r.Port != int(tt.port) {
				t.Errorf("reported %+v; want %q", r, tt.refused)
			}
		})
	}
	select {
	case r := <-rs.ch:
		t.Errorf("an extra refusal was reported: %+v", r)
	default:
	}
}

// TestSOCKS5NoAcceptableMethod: a client that offers only authentication
// methods gets 0xFF and a close.
func TestSOCKS5NoAcceptableMethod(t *testing.T) {
	opts, _ := loopbackOpts(nil)
	p, _ := start(t, allowAll, opts)
	for _, greet := range [][]byte{{5, 1, 0x02}, {5, 0}} {
		c := dialUnix(t, p.Path())
		c.Write(greet)
		if got := readAll(t, c); got != "\x05\xff" {
			t.Errorf("greeting % x answered %q; want 05 ff and a close", greet, got)
		}
	}
}

// FuzzSOCKS5Request: the request parser never panics, never reads past
// the longest valid request, and what it accepts is a valid destination.
func FuzzSOCKS5Request(f *testing.F) {
	f.Add([]byte("\x05\x01\x00\x03\x0bexample.com\x01\xbb"))
	f.Add([]byte("\x05\x01\x00\x01\x7f\x00\x00\x01\x00\x50"))
	f.Add([]byte("\x05\x01\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x50"))
	f.Add([]byte("\x05\x02\x00\x03\x00\x00\x00"))
	f.Add([]byte("\x05\x01\x00\x03\x03a\x00b\x00\x50"))
	f.Add([]byte("\x04\x01\x00\x50"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		host, ip, port, err := socksRequest(r)
		if used := len(data) - r.Len(); used > 4+1+255+2 {
			t.Fatalf("read %d bytes", used)
		}
		var se *socksError
		if err != nil {
			if !errors.As(err, &se) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("unexpected error kind %T %v", err, err)
			}
			return
		}
		if port < 1 || port > 65535 {
			t.Fatalf("port %d accepted", port)
		}
		if n, a, err := normalizeHost(host); err != nil || n != host || a != ip {
			t.Fatalf("accepted host %q is not normalized (%q %v %v)", host, n, a, err)
		}
	})
}
