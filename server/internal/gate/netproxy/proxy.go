package netproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

const (
	// maxHead caps a request head (request line and headers): real clients
	// send well under 4 KiB to a proxy.
	maxHead = 16 << 10
	// defaultHeadTimeout bounds the wait for a request head or a SOCKS5
	// handshake, so a silent client cannot hold a connection slot.
	defaultHeadTimeout = 15 * time.Second
	// defaultMaxConns caps connections served at once; each costs two
	// goroutines and two file descriptors. Package managers open tens.
	defaultMaxConns = 256
)

// options are the knobs tests turn; Listen uses the defaults.
type options struct {
	checkAddr   func(netip.Addr) error
	lookup      lookupFunc
	headTimeout time.Duration
	dialTimeout time.Duration
	maxConns    int
	// served, when set, is called as each connection's handler returns.
	served func()
}

func defaultOptions() options {
	return options{
		checkAddr:   web.Policy{}.CheckAddr,
		lookup:      systemLookup,
		headTimeout: defaultHeadTimeout,
		dialTimeout: defaultDialTimeout,
		maxConns:    defaultMaxConns,
	}
}

// Proxy is the sidecar's end: an HTTP CONNECT, plain HTTP and SOCKS5 proxy
// on one Unix socket. It is safe for concurrent use.
type Proxy struct {
	path     string
	ln       *net.UnixListener
	allow    Decider
	onRefuse func(Refusal)
	opts     options

	ctx    context.Context // ends at Close; bounds dials
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
}

// Listen serves HTTP CONNECT, plain absolute-form HTTP requests (GET
// http://host/path, forwarded with hop-by-hop headers removed), and SOCKS5
// (CONNECT only, no auth; domain, IPv4 and IPv6 address types) on ONE Unix
// socket at path, detecting the protocol from the first byte (0x05 =
// SOCKS5). The socket is made 0600. onRefuse may be nil; it may be called
// from several goroutines at once.
func Listen(path string, allow Decider, onRefuse func(Refusal)) (*Proxy, error) {
	return listen(path, allow, onRefuse, defaultOptions())
}

func listen(path string, allow Decider, onRefuse func(Refusal), opts options) (*Proxy, error) {
	if allow == nil {
		return nil, errors.New("netproxy: Listen needs a Decider")
	}
	if path == "" {
		return nil, errors.New("netproxy: Listen needs a socket path")
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		if errors.Is(err, syscall.EINVAL) && len(path) >= 104 {
			return nil, fmt.Errorf("netproxy: listen on %s: %w (a Unix socket path must be under 104 bytes; this one has %d)", path, err, len(path))
		}
		return nil, fmt.Errorf("netproxy: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("netproxy: make %s private: %w", path, err)
	}
	p := &Proxy{path: path, ln: ln, allow: allow, onRefuse: onRefuse, opts: opts, conns: map[net.Conn]struct{}{}}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// Path is the socket's path, for the sandbox's bind mount.
func (p *Proxy) Path() string { return p.path }

// Close stops accepting, closes live tunnels, waits for every connection's
// goroutines and removes the socket file. It is safe to call more than once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	err := p.ln.Close()
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	// net removes the file on Close; this covers a listener that failed.
	if rmErr := os.Remove(p.path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) && err == nil {
		err = rmErr
	}
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// track registers a connection so Close can end it; it returns false (and
// closes c) once the proxy is closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

// serve accepts while a connection slot is free: beyond the cap, clients
// wait in the kernel's backlog instead of costing goroutines.
func (p *Proxy) serve() {
	defer p.wg.Done()
	slots := make(chan struct{}, p.opts.maxConns)
	backoff := 5 * time.Millisecond
	for {
		select {
		case slots <- struct{}{}:
		case <-p.ctx.Done():
			return
		}
		c, err := p.ln.Accept()
		if err != nil {
			<-slots
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				// Out of descriptors for a moment: wait rather than spin.
				select {
				case <-time.After(backoff):
				case <-p.ctx.Done():
					return
				}
				backoff = min(2*backoff, time.Second)
				continue
			}
			return // closed, or the listener failed for good
		}
		backoff = 5 * time.Millisecond
		if !p.track(c) {
			<-slots
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer func() { <-slots }()
			defer p.untrack(c)
			p.serveConn(c)
			if p.opts.served != nil {
				p.opts.served()
			}
		}()
	}
}

// serveConn tells the protocols apart by the first byte and hands over.
// The same buffered reader carries on, so no byte the client sent is lost.
func (p *Proxy) serveConn(c net.Conn) {
	cr := &capReader{r: c, left: maxHead}
	br := bufio.NewReaderSize(cr, 4096)
	_ = c.SetReadDeadline(time.Now().Add(p.opts.headTimeout))
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	switch b := first[0]; {
	case b == socksVersion:
		p.serveSOCKS5(c, br, cr)
	case b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z':
		p.serveHTTP(c, br, cr)
	default:
		// TLS sent straight at the proxy, SOCKS4, binary junk: no
		// protocol here to answer in.
	}
}

// refuse reports a refusal.
func (p *Proxy) refuse(host string, port int, reason string) {
	if p.onRefuse != nil {
		p.onRefuse(Refusal{Host: host, Port: port, Reason: reason})
	}
}

// connectUpstream dials a tracked upstream connection for a client.
func (p *Proxy) connectUpstream(host string, ip netip.Addr, port int) (net.Conn, error) {
	up, err := p.dial(p.ctx, host, ip, port)
	if err != nil {
		var re *refusedError
		if errors.As(err, &re) {
			p.refuse(host, port, re.reason)
		}
		return nil, err
	}
	if !p.track(up) {
		return nil, net.ErrClosed
	}
	return up, nil
}

// capReader limits how much a request head may read from the connection;
// left < 0 means no limit (the body or tunnel phase).
type capReader struct {
	r    interface{ Read([]byte) (int, error) }
	left int
}

// errHeadTooLarge is returned once a head has used up its cap.
var errHeadTooLarge = errors.New("request head over 16 KiB")

func (c *capReader) Read(b []byte) (int, error) {
	if c.left < 0 {
		return c.r.Read(b)
	}
	if c.left == 0 {
		return 0, errHeadTooLarge
	}
	if len(b) > c.left {
		b = b[:c.left]
	}
	n, err := c.r.Read(b)
	c.left -= n
	return n, err
}
