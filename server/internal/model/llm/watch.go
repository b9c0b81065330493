package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// errIdle is the cancel cause of an attempt whose connection went silent.
var errIdle = errors.New("no data received")

// maxErrorBody bounds how much of an error response is kept for messages.
const maxErrorBody = 64 << 10

// attemptWatch observes one HTTP attempt from inside openai-go's middleware
// chain: the status and headers of the response (which openai-go does not
// surface for non-JSON error bodies), whether the SSE terminator arrived,
// and when the last byte was read (to cancel stalled attempts).
//
// Concurrency: the middleware and body reads run on the streaming goroutine;
// the idle timer fires on its own goroutine and only calls cancel, which is
// safe. Fields written by the middleware are read by the streaming goroutine
// after the stream ends, under mu.
type attemptWatch struct {
	idle   time.Duration
	cancel context.CancelCauseFunc
	timer  *time.Timer

	mu      sync.Mutex
	status  int
	header  http.Header
	errBody []byte
	sawDone bool
	gotResp bool
}

func newAttemptWatch(idle time.Duration, cancel context.CancelCauseFunc) *attemptWatch {
	w := &attemptWatch{idle: idle, cancel: cancel}
	// The clock runs from the start of the attempt so a server that accepts
	// the connection but never answers is caught too.
	w.timer = time.AfterFunc(idle, func() { cancel(errIdle) })
	return w
}

func (w *attemptWatch) stop() { w.timer.Stop() }

func (w *attemptWatch) touch() { w.timer.Reset(w.idle) }

func (w *attemptWatch) middleware() option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res == nil {
			return res, err
		}
		w.touch()
		w.mu.Lock()
		w.gotResp = true
		w.status = res.StatusCode
		w.header = res.Header.Clone()
		w.mu.Unlock()
		if res.StatusCode >= 400 {
			body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
			_ = res.Body.Close()
			w.mu.Lock()
			w.errBody = body
			w.mu.Unlock()
			res.Body = io.NopCloser(bytes.NewReader(body))
			return res, nil
		}
		res.Body = &watchedBody{rc: res.Body, w: w}
		return res, nil
	}
}

func (w *attemptWatch) snapshot() (status int, header http.Header, errBody []byte, sawDone, gotResp bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status, w.header, w.errBody, w.sawDone, w.gotResp
}

// watchedBody resets the idle clock on every read that returns bytes and
// spots the `data: [DONE]` line, which openai-go's decoder treats the same
// as a clean EOF.
type watchedBody struct {
	rc       io.ReadCloser
	w        *attemptWatch
	line     []byte
	overflow bool
}

// doneLineMax is longer than any spelling of the terminator line; longer
// lines are data and need not be kept.
const doneLineMax = 32

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.touch()
		b.scan(p[:n])
	}
	return n, err
}

func (b *watchedBody) scan(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.add(p)
			return
		}
		b.add(p[:i])
		b.endLine()
		p = p[i+1:]
	}
}

func (b *watchedBody) add(seg []byte) {
	if b.overflow {
		return
	}
	if len(b.line)+len(seg) > doneLineMax {
		b.overflow = true
		b.line = b.line[:0]
		return
	}
	b.line = append(b.line, seg...)
}

func (b *watchedBody) endLine() {
	if !b.overflow {
		l := bytes.TrimSpace(b.line)
		if bytes.Equal(l, []byte("data: [DONE]")) || bytes.Equal(l, []byte("data:[DONE]")) {
			b.w.mu.Lock()
			b.w.sawDone = true
			b.w.mu.Unlock()
		}
	}
	b.line = b.line[:0]
	b.overflow = false
}

func (b *watchedBody) Close() error { return b.rc.Close() }
