package fakeeditor

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/wire"
)

func now() time.Time { return time.Now() }

type pipeRWC struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p *pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipeRWC) Close() error {
	err := p.w.Close()
	_ = p.r.Close()
	return err
}

type lockedWriter struct {
	b  *strings.Builder
	mu *sync.Mutex
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

type syncWriter struct{ io.Writer }

func (syncWriter) Sync() error { return nil }

type lazyCaller struct {
	c     *wire.Conn
	ready chan struct{}
}

func (l *lazyCaller) Call(ctx context.Context, method string, params, result any) error {
	<-l.ready
	return l.c.Call(ctx, method, params, result)
}

func (l *lazyCaller) Notify(ctx context.Context, method string, params any) error {
	<-l.ready
	return l.c.Notify(ctx, method, params)
}
