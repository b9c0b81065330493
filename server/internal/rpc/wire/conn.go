package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"
	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
)

// Handler answers one client→server message. It is protocol.Dispatch bound
// to a Server in production.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Conn is a served JSON-RPC connection.
//
// Ordering: jsonrpc2 calls handle from its single read loop. Notifications
// and state-changing requests (protocol.IsOrdered) are queued and run one at
// a time in arrival order on the ordered worker; pure reads run on their own
// goroutines. handle itself never blocks, so replies to our own
// server→client calls are always read, and a handler awaiting one cannot
// deadlock the connection.
//
// Cancellation: $/cancelRequest is handled directly on the read loop. It
// cancels the running handler's context, or marks a still-queued request so
// it is answered with RequestCancelled without running.
type Conn struct {
	conn *jsonrpc2.Conn
	// stream is the conn's own stream: notifications and replies are
	// framed here directly (see outgoing), requests go through conn, which
	// must track their replies.
	stream *stream
	log    *zap.Logger
	handle Handler

	mu       sync.Mutex
	inflight map[jsonrpc2.ID]context.CancelCauseFunc
	queue    []queued
	wake     chan struct{}

	nextID atomic.Uint64
	done   chan struct{}
	// drained closes when the ordered worker has handled everything that
	// arrived before the peer disconnected.
	drained chan struct{}
}

type queued struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	req    *jsonrpc2.Request
}

// errDisconnected is the cancellation cause when the peer goes away, as
// opposed to a $/cancelRequest from it.
var errDisconnected = errors.New("the editor disconnected")

// Serve starts serving rwc. The returned Conn's Done channel closes when the
// peer disconnects.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, h Handler, log *zap.Logger) *Conn {
	c := &Conn{
		log:      log,
		handle:   h,
		inflight: map[jsonrpc2.ID]context.CancelCauseFunc{},
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		drained:  make(chan struct{}),
	}
	c.stream = newStream(rwc, func(err error) { log.Warn("skipped malformed JSON-RPC input", zap.Error(err)) })
	c.conn = jsonrpc2.NewConn(ctx, c.stream, c, jsonrpc2.SetLogger(zapLogger{log}))
	go c.orderedWorker()
	go func() {
		<-c.conn.DisconnectNotify()
		close(c.done)
		c.mu.Lock()
		for _, cancel := range c.inflight {
			cancel(errDisconnected)
		}
		c.mu.Unlock()
		c.kick()
	}()
	return c
}

// Done closes when the connection ends.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Drained closes after Done, once every ordered message received before
// the disconnect has been handled (an exit sent just before the editor
// closed the pipe still counts).
func (c *Conn) Drained() <-chan struct{} { return c.drained }

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }

// Handle implements jsonrpc2.Handler. It runs on the read loop and must
// never block.
func (c *Conn) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	// The params the stream kept out of jsonrpc2's decoding belong to this
	// request: jsonrpc2 calls Handle on its read loop right after
	// ReadObject returned it.
	if p := c.stream.takeSplit(); p != nil {
		req.Params = p
	}
	if req.Method == "$/cancelRequest" {
		c.cancelRequest(req)
		return
	}
	// jsonrpc2 cancels ctx as soon as the connection closes; cancellation
	// is ours to decide instead (a $/cancelRequest, or errDisconnected for
	// what is still running when the peer goes away), so detach from it.
	hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	if !req.Notif {
		c.mu.Lock()
		c.inflight[req.ID] = cancel
		c.mu.Unlock()
	}
	if protocol.IsOrdered(req.Method) {
		c.mu.Lock()
		c.queue = append(c.queue, queued{hctx, cancel, req})
		c.mu.Unlock()
		c.kick()
		return
	}
	go c.run(hctx, cancel, req)
}

func (c *Conn) kick() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *Conn) orderedWorker() {
	defer close(c.drained)
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.mu.Unlock()
			select {
			case <-c.done:
				// Everything received before the disconnect is queued by
				// now (the read loop has ended); drain it, then stop.
				c.mu.Lock()
				empty := len(c.queue) == 0
				c.mu.Unlock()
				if empty {
					return
				}
			case <-c.wake:
			}
			continue
		}
		q := c.queue[0]
		c.queue[0] = queued{}
		c.queue = c.queue[1:]
		c.mu.Unlock()
		c.run(q.ctx, q.cancel, q.req)
	}
}

type cancelParams struct {
	ID jsonrpc2.ID `json:"id"`
}

func (c *Conn) cancelRequest(req *jsonrpc2.Request) {
	var p cancelParams
	if req.Params == nil || json.Unmarshal(*req.Params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.inflight[p.ID]
	c.mu.Unlock()
	if cancel != nil {
		cancel(context.Canceled)
	}
}

// run handles one message and replies. Panics become InternalError replies:
// one broken handler must not take the sidecar down.
func (c *Conn) run(ctx context.Context, cancel context.CancelCauseFunc, req *jsonrpc2.Request) {
	defer func() {
		cancel(nil)
		if !req.Notif {
			c.mu.Lock()
			delete(c.inflight, req.ID)
			c.mu.Unlock()
		}
		if req.Params != nil && len(*req.Params) >= bigMessage {
			// The params are a view of the message's body: once nothing
			// refers to it, its memory goes back to the system.
			req.Params = nil
			memory.release(0)
		}
	}()
	var (
		result any
		err    error
	)
	switch {
	case req.Notif || (protocol.IsOrdered(req.Method) && errors.Is(context.Cause(ctx), errDisconnected)):
		// Notifications and ordered requests are state changes the client
		// already committed to (shutdown then exit, a settings change); the
		// connection closing right after them must not drop them. Only the
		// client's own $/cancelRequest skips a queued request.
		result, err = c.call(context.WithoutCancel(ctx), req)
	case ctx.Err() != nil:
		err = ctx.Err()
	default:
		result, err = c.call(ctx, req)
	}
	if req.Notif {
		if err != nil {
			c.log.Warn("notification failed", zap.String("method", req.Method), zap.Error(err))
		}
		return
	}
	var rpcErr *jsonrpc2.Error
	if err != nil {
		rpcErr = toRPCError(ctx, err)
	}
	c.reply(req, result, rpcErr)
}

// reply answers req with result, or with rpcErr when it is not nil.
func (c *Conn) reply(req *jsonrpc2.Request, result any, rpcErr *jsonrpc2.Error) {
	f := getOutgoing()
	defer f.release()
	var err error
	if rpcErr != nil {
		err = f.failure(req.ID, rpcErr)
	} else if err = f.result(req.ID, result); err != nil {
		// A result that cannot be encoded must still answer the request,
		// or the editor waits for it forever.
		c.log.Error("reply not encodable", zap.String("method", req.Method), zap.Error(err))
		f.reset()
		err = f.failure(req.ID, &jsonrpc2.Error{Code: protocol.CodeInternalError,
			Message: fmt.Sprintf("internal error in %s: its result could not be encoded: %v", req.Method, err)})
	}
	if err == nil {
		err = c.write(f)
	}
	if err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		c.log.Warn("reply failed", zap.String("method", req.Method), zap.Error(err))
	}
}

// write sends one framed message, reporting jsonrpc2.ErrClosed once the
// connection has ended, as jsonrpc2's own sends do.
func (c *Conn) write(f *outgoing) error { return c.writeRaw(f.bytes()) }

// writeRaw writes whole framed messages (one, or a Batch's).
func (c *Conn) writeRaw(frames []byte) error {
	select {
	case <-c.done:
		return jsonrpc2.ErrClosed
	default:
	}
	err := c.stream.writeFrames(frames)
	if err != nil {
		select {
		case <-c.done:
			return jsonrpc2.ErrClosed
		default:
		}
	}
	return err
}

func (c *Conn) call(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("handler panic", zap.String("method", req.Method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			err = &protocol.Error{Code: protocol.CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", req.Method, p)}
		}
	}()
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	return c.handle(ctx, req.Method, params)
}

func toRPCError(ctx context.Context, err error) *jsonrpc2.Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		e := &jsonrpc2.Error{Code: int64(pe.Code), Message: Bound(pe.Message)}
		if pe.Data != nil {
			e.SetError(pe.Data)
		}
		return e
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())) {
		return &jsonrpc2.Error{Code: protocol.CodeRequestCancelled, Message: "request cancelled"}
	}
	return &jsonrpc2.Error{Code: protocol.CodeInternalError, Message: Bound(err.Error())}
}

// Call sends a server→client request and waits for its reply. When ctx ends
// first, the peer is sent $/cancelRequest so it can stop working on it.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	id := jsonrpc2.ID{Num: c.nextID.Add(1)}
	w, err := c.conn.DispatchCall(ctx, method, params, jsonrpc2.PickID(id))
	if err != nil {
		return err
	}
	err = w.Wait(ctx, result)
	if err != nil && ctx.Err() != nil {
		_ = c.Notify(context.Background(), "$/cancelRequest", cancelParams{ID: id})
		return ctx.Err()
	}
	var re *jsonrpc2.Error
	if errors.As(err, &re) {
		return &protocol.Error{Code: int(re.Code), Message: re.Message}
	}
	return err
}

// Notify sends a server→client notification, encoding params once.
// Concurrent calls are written whole, in the order they acquire the stream.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	f := getOutgoing()
	defer f.release()
	if err := f.notification(method, params); err != nil {
		return fmt.Errorf("%s notification: %w", method, err)
	}
	if b := batchFrom(ctx); b != nil {
		return b.add(c, f.bytes())
	}
	return c.write(f)
}

type zapLogger struct{ l *zap.Logger }

func (z zapLogger) Printf(format string, v ...any) { z.l.Debug(fmt.Sprintf(format, v...)) }
