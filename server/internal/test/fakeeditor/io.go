package fakeeditor

import (
	"io"
	"strings"
	"sync"
	"time"
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
