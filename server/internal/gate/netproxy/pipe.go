package netproxy

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// closeWriter is a connection that can shut down its sending side alone
// (TCP and Unix stream sockets).
type closeWriter interface{ CloseWrite() error }

// pipe copies a's bytes (read through ar, which may hold bytes already
// buffered from a) to b and b's to a, until both directions end. When one
// side finishes sending, the other side's write half is shut down and the
// opposite direction carries on, so a client that half-closes still gets
// its reply. An error in either direction closes both connections, which
// ends the other copy. The caller closes a and b afterwards.
func pipe(a net.Conn, ar io.Reader, b net.Conn) {
	done := make(chan error, 2)
	go func() { done <- copyHalf(b, ar) }()
	go func() { done <- copyHalf(a, b) }()
	if err := <-done; err != nil {
		_ = a.Close()
		_ = b.Close()
	}
	<-done
}

// copyHalf copies src to dst and then shuts down dst's write half. A
// connection that cannot half-close is closed, which counts as an error so
// the whole pipe ends.
func copyHalf(dst net.Conn, src io.Reader) error {
	_, err := io.Copy(dst, src)
	if err != nil {
		return err
	}
	if cw, ok := dst.(closeWriter); ok {
		return cw.CloseWrite()
	}
	_ = dst.Close()
	return errors.New("connection cannot half-close")
}

// maxForwarded caps Forward's connections served at once, as the proxy's
// own cap does.
const maxForwarded = defaultMaxConns

// Forward runs inside the sandbox: it accepts TCP connections on ln and
// pipes each, byte for byte, to the Unix socket at path. It returns nil when
// ctx ends (it then closes ln and every live connection), or the error that
// made ln fail. Connections beyond the cap wait in ln's backlog.
func Forward(ctx context.Context, ln net.Listener, path string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu     sync.Mutex
		conns  = map[net.Conn]struct{}{}
		wg     sync.WaitGroup
		slots  = make(chan struct{}, maxForwarded)
		closed bool
	)
	track := func(c net.Conn) bool {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			_ = c.Close()
			return false
		}
		conns[c] = struct{}{}
		return true
	}
	untrack := func(c net.Conn) {
		mu.Lock()
		delete(conns, c)
		mu.Unlock()
		_ = c.Close()
	}
	stopped := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-stopped:
		}
		mu.Lock()
		closed = true
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		_ = ln.Close()
	}()
	defer func() {
		close(stopped)
		wg.Wait()
	}()
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if !track(c) {
			<-slots
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer untrack(c)
			d := net.Dialer{Timeout: 10 * time.Second}
			up, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return // the client sees its connection close
			}
			if !track(up) {
				return
			}
			defer untrack(up)
			pipe(c, c, up)
		}()
	}
}
