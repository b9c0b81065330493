// Package wire is the JSON-RPC edge: framing, ordering, cancellation and
// panic recovery around sourcegraph/jsonrpc2. Nothing above it sees
// jsonrpc2 types.
//
// # Ordering
//
// jsonrpc2 calls Conn.Handle on its single read loop; Handle never blocks.
// Notifications and state-changing requests (Ordered in the protocol's method
// table) run one at a time on an ordered worker, in arrival order; reads run
// concurrently. $/cancelRequest is handled on the read loop and cancels a
// running handler's context or a queued request (answered -32800).
// Server→client requests (editor/applyEdit, editor/dirtyBuffer,
// editor/diagnostics) are only issued from turn goroutines, so awaiting them
// cannot deadlock the read loop; a cancelled context sends $/cancelRequest to
// the editor.
//
// # Batching
//
// The server's bus subscriber sends each run of queued events in one write:
// notifications sent with a Batch context are held until the subscriber's
// flush (or until 64 KB); requests and replies are never held.
//
// # Bounds
//
// Header lines are bounded at 4 KB and messages at 64 MB: a bigger body is
// skipped by its length, up to 1 GB, or the stream is resynchronised on the
// next Content-Length:; the refusal answers the request's id when its start
// shows it. Error replies (Bound) quote at most a few KB of input.
package wire
