// Package netproxy is the only way out of the network-less command sandbox:
// a proxy the sidecar runs on a Unix socket that is bind-mounted into the
// sandbox, and the tiny forwarder that runs inside it.
//
// # Design
//
// A sandboxed command runs in a network namespace with nothing but its own
// loopback. Its proxy variables (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY) point at
// 127.0.0.1:PORT inside the namespace, where Forward accepts TCP and pipes
// each connection byte for byte to the Unix socket. A Unix socket is a file,
// so it crosses the namespace boundary through the bind mount, and the
// sandbox needs no network device at all.
//
// On the sidecar's side, Listen serves three protocols on that one socket,
// told apart by the first byte: 0x05 is SOCKS5 (RFC 1928, CONNECT only, no
// authentication); an ASCII letter starts an HTTP/1 request head, either
// CONNECT host:port (tunnels, used for HTTPS) or an absolute-form request
// (GET http://host/path), which is forwarded with hop-by-hop headers
// removed. Anything else is closed unanswered.
//
// Each connection is decided twice:
//
//  1. The Decider sees the destination host (a lower-case domain name
//     without a trailing dot, or an IP literal in canonical form, however the
//     client spelled it: 0x7f.1 is asked as 127.0.0.1). It is consulted
//     before any name is resolved, so a name outside the allowlist never
//     reaches the DNS, and a command cannot leak data through lookups.
//  2. At dial time the proxy resolves the name itself, refuses the whole
//     connection if any answer is a loopback, private, link-local (cloud
//     metadata), CGNAT, unspecified, multicast or reserved address (the web
//     package's SSRF policy, the one web_fetch uses), and then dials the
//     exact IPs it checked. There is no second resolution, so a DNS answer
//     that changes between check and connect (rebinding) cannot slip through;
//     the dialer's Control hook checks the connected address once more.
//
// Every refusal answers in the client's protocol (403 with a one-line body
// naming the host and the reason for HTTP; reply 0x02, "connection not
// allowed by ruleset", for SOCKS5) and is reported to onRefuse, which the
// sidecar logs and tells the model by domain.
//
// Costs are bounded: a request head is read with a 16 KiB cap and a
// deadline, a SOCKS5 handshake is a few hundred bytes under the same
// deadline, and at most a fixed number of connections are served at once
// (the rest wait in the listen backlog). Tunnels carry half-closes, so a
// client that shuts down its sending side still receives the reply, and
// Close ends every live tunnel.
//
// # Failure modes and what the proxy does not promise
//
//   - Fails closed: a client that ignores the proxy variables, or resolves
//     names itself (socks5:// rather than socks5h://), simply has no network;
//     the sandbox has no resolver and no route.
//   - Only TCP. UDP (QUIC, DNS), ICMP and SOCKS5 BIND and UDP ASSOCIATE are
//     refused; clients fall back to TCP or fail.
//   - The decision is per host, not per port: an allowed domain is allowed on
//     every port.
//   - No TLS inspection. Through CONNECT the proxy sees only host:port; a
//     client that sends a different TLS SNI or Host header to a shared front
//     (domain fronting on a CDN) reaches whatever that front serves. Plain
//     HTTP requests are sent with Host set to the URL's authority, so that
//     channel is closed for them. An allowed domain that accepts uploads is an
//     exfiltration channel by nature; the allowlist is the user's choice.
//   - The Decider is consulted per connection: removing a domain affects new
//     connections, not tunnels already open.
//   - The socket is created with mode 0600, but between bind and chmod it
//     has the process umask; put it in a directory only the user can enter.
//   - A tunnel whose two sides both stay open and silent lives until one
//     side closes or Close is called; the connection cap bounds how many.
package netproxy
