package shellcheck

import (
	"strings"
)

// Network plus execution is dangerous: a program that both reaches the
// network and runs commands or reads local data can be a reverse or bind
// shell, or send the workspace away. The analysis cannot run one-liners in
// other languages, so it looks for what they use to reach the network.

// netCode matches code that opens connections or serves, in the languages
// interpreters on the command line are given: sockets, HTTP clients, raw
// /dev/tcp paths, and network commands run from the code.
var netCode = newLitFilter(`(?i)socket|fsockopen|stream_socket|curl_exec|urlopen|urllib|requests\.(get|post|put)|http\.client|httplib|` +
	`ftplib|smtplib|telnetlib|paramiko|open_connection|websocket|xmlrpc|net::http|http::tiny|lwp::|open-uri|uri\.open|` +
	`net\.connect|net\.createconnection|require\(\s*['"](node:)?(net|http|https|dgram|tls)['"]\s*\)|from\s+['"](node:)?(net|http|https|dgram|tls)['"]|` +
	`https?\.request|https?\.get\(|\bfetch\s*\(|xmlhttprequest|/dev/(tcp|udp)/|https?://|\b(nc|ncat|netcat|socat|telnet|curl|wget|ssh|scp)\s|` +
	`TCPServer|TCPSocket|UDPSocket|IO::Socket|\binet\b|createServer|listen\s*\(|\bhttpd\b|WEBrick|SimpleHTTP|http\.server|` +
	`Deno\.(connect|listen|serve|startTls)|Bun\.(connect|listen|serve|udpSocket)|` +
	`Invoke-WebRequest|Invoke-RestMethod|Net\.WebClient|Net\.Sockets|\biwr\b|\birm\b|java\.net|HttpClient|downloadString`)

// inlineCode raises sub-command i for code given to an interpreter on the
// command line, in a here-document or through a pipe.
func (a *analyzer) inlineCode(i int, lang, code string) {
	if m := netCode.FindString(code); m != "" {
		a.out.Commands[i].raise(Dangerous, lang+" code reaches the network ("+strings.TrimSpace(m)+"); it can send local data or connect a shell to a socket")
	}
	if why := a.textSecret(code); why != "" {
		a.out.Commands[i].raise(Dangerous, lang+" code reads a secret: "+why)
	}
}

// netDevice reports whether a path is bash's /dev/tcp or /dev/udp, which
// open network connections when redirected to or from.
func netDevice(abs string) bool {
	return strings.HasPrefix(abs, "/dev/tcp/") || strings.HasPrefix(abs, "/dev/udp/") || abs == "/dev/tcp" || abs == "/dev/udp"
}
