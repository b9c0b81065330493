package wire

import "context"

// Lazy is a caller for a connection that does not exist yet: the server is
// built (and given its client) before wire.Serve returns the connection it
// calls through. Calls made before Set block until it is called.
type Lazy struct {
	c     *Conn
	ready chan struct{}
}

// NewLazy returns a Lazy waiting for Set.
func NewLazy() *Lazy { return &Lazy{ready: make(chan struct{})} }

// Set supplies the connection; call it exactly once. c is written before
// ready closes and only read after, so no lock is needed.
func (l *Lazy) Set(c *Conn) {
	l.c = c
	close(l.ready)
}

func (l *Lazy) Call(ctx context.Context, method string, params, result any) error {
	<-l.ready
	return l.c.Call(ctx, method, params, result)
}

func (l *Lazy) Notify(ctx context.Context, method string, params any) error {
	<-l.ready
	return l.c.Notify(ctx, method, params)
}
