package netproxy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// SOCKS5 as RFC 1928 defines it, CONNECT only and without authentication.
//
// Method selection (§3): the client sends VER=5, NMETHODS, METHODS; the
// server answers VER=5 and the chosen METHOD, 0x00 for "no authentication
// required" or 0xFF for "no acceptable methods" (then the client closes).
//
// Request (§4): VER=5, CMD, RSV=0, ATYP, DST.ADDR, DST.PORT, where CMD is
// 1 CONNECT, 2 BIND or 3 UDP ASSOCIATE; ATYP is 1 (4-byte IPv4), 3 (a
// length byte and that many bytes of domain name, no NUL) or 4 (16-byte
// IPv6); and the port is two bytes in network order.
//
// Reply (§6): VER=5, REP, RSV=0, ATYP, BND.ADDR, BND.PORT. On a failure
// reply the server closes the connection right away. BND is the address
// the server's outgoing socket is bound to; the sandbox has no use for the
// host's address, so the proxy answers 0.0.0.0:0.
const (
	socksVersion      = 0x05
	socksNoAuth       = 0x00
	socksNoAcceptable = 0xff

	socksCmdConnect = 0x01

	socksAtypIPv4   = 0x01
	socksAtypDomain = 0x03
	socksAtypIPv6   = 0x04

	socksSucceeded           = 0x00
	socksGeneralFailure      = 0x01
	socksNotAllowed          = 0x02
	socksNetworkUnreachable  = 0x03
	socksHostUnreachable     = 0x04
	socksConnectionRefused   = 0x05
	socksCommandNotSupported = 0x07
	socksAtypNotSupported    = 0x08
)

// socksError is a request the proxy answers with a failure reply.
type socksError struct {
	rep byte
	msg string
}

func (e *socksError) Error() string { return e.msg }

// socksGreeting reads the method selection message and reports whether the
// client offers "no authentication".
func socksGreeting(r io.Reader) (bool, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return false, err
	}
	if hdr[0] != socksVersion {
		return false, fmt.Errorf("SOCKS version %d, want 5", hdr[0])
	}
	if hdr[1] == 0 {
		return false, nil
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(r, methods); err != nil {
		return false, err
	}
	for _, m := range methods {
		if m == socksNoAuth {
			return true, nil
		}
	}
	return false, nil
}

// socksRequest reads a request and validates its destination. A request
// the proxy will not serve comes back as *socksError with its reply code;
// other errors mean the client stopped mid-request.
func socksRequest(r io.Reader) (host string, ip netip.Addr, port int, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return "", ip, 0, err
	}
	if hdr[0] != socksVersion {
		return "", ip, 0, &socksError{socksGeneralFailure, fmt.Sprintf("SOCKS version %d in the request, want 5", hdr[0])}
	}
	// The command is checked after the address is read, so the reply
	// follows a complete request.
	var raw string
	switch hdr[3] {
	case socksAtypIPv4:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", ip, 0, err
		}
		raw = netip.AddrFrom4(b).String()
	case socksAtypIPv6:
		var b [16]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", ip, 0, err
		}
		raw = netip.AddrFrom16(b).String()
	case socksAtypDomain:
		var n [1]byte
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return "", ip, 0, err
		}
		b := make([]byte, n[0])
		if _, err := io.ReadFull(r, b); err != nil {
			return "", ip, 0, err
		}
		raw = string(b)
	default:
		return "", ip, 0, &socksError{socksAtypNotSupported, fmt.Sprintf("address type %d is not supported", hdr[3])}
	}
	var pb [2]byte
	if _, err := io.ReadFull(r, pb[:]); err != nil {
		return "", ip, 0, err
	}
	if hdr[1] != socksCmdConnect {
		return "", ip, 0, &socksError{socksCommandNotSupported, fmt.Sprintf("SOCKS command %d is not supported (only CONNECT)", hdr[1])}
	}
	port = int(binary.BigEndian.Uint16(pb[:]))
	if port == 0 {
		return "", ip, 0, &socksError{socksGeneralFailure, "port 0"}
	}
	host, ip, err = normalizeHost(raw)
	if err != nil {
		return "", ip, 0, &socksError{socksGeneralFailure, err.Error()}
	}
	return host, ip, port, nil
}

// socksReply writes a reply with BND.ADDR 0.0.0.0:0.
func socksReply(c net.Conn, rep byte) error {
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	defer c.SetWriteDeadline(time.Time{})
	_, err := c.Write([]byte{socksVersion, rep, 0x00, socksAtypIPv4, 0, 0, 0, 0, 0, 0})
	return err
}

// socksDialReply maps a failed dial to the closest reply code.
func socksDialReply(err error) byte {
	var re *refusedError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &re):
		return socksNotAllowed
	case errors.As(err, &dnsErr), isTimeout(err), errors.Is(err, syscall.EHOSTUNREACH):
		return socksHostUnreachable
	case errors.Is(err, syscall.ECONNREFUSED):
		return socksConnectionRefused
	case errors.Is(err, syscall.ENETUNREACH):
		return socksNetworkUnreachable
	}
	return socksGeneralFailure
}

// serveSOCKS5 runs the handshake under the head deadline, then the tunnel.
// br already holds the first byte; the whole handshake is a few hundred
// bytes, well under the head cap.
func (p *Proxy) serveSOCKS5(c net.Conn, br *bufio.Reader, cr *capReader) {
	ok, err := socksGreeting(br)
	if err != nil {
		return
	}
	if !ok {
		_, _ = c.Write([]byte{socksVersion, socksNoAcceptable})
		return
	}
	if _, err := c.Write([]byte{socksVersion, socksNoAuth}); err != nil {
		return
	}
	host, ip, port, err := socksRequest(br)
	var se *socksError
	if errors.As(err, &se) {
		_ = socksReply(c, se.rep)
		return
	}
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	cr.left = -1
	up, err := p.connectUpstream(host, ip, port)
	if err != nil {
		_ = socksReply(c, socksDialReply(err))
		return
	}
	defer p.untrack(up)
	if err := socksReply(c, socksSucceeded); err != nil {
		return
	}
	pipe(c, br, up)
}
