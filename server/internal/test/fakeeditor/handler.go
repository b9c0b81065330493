package fakeeditor

import (
	"context"
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"
)

// Handle implements jsonrpc2.Handler. Notifications are recorded on the
// read loop, so their order is the wire order; requests are answered on
// their own goroutines so a slow answer never stalls the read loop (the
// same rule the sidecar follows).
func (e *Editor) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var params json.RawMessage
	if req.Params != nil {
		params = append(json.RawMessage(nil), *req.Params...)
	}
	if req.Notif {
		e.record(Notification{Method: req.Method, Params: params, At: now()})
		return
	}
	go e.answer(ctx, conn, req, params)
}

func (e *Editor) answer(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, params json.RawMessage) {
	e.mu.Lock()
	h := e.handlers[req.Method]
	e.mu.Unlock()
	if h == nil {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "fakeeditor: no handler for " + req.Method})
		return
	}
	res, err := h(params)
	if err != nil {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
		return
	}
	_ = conn.Reply(ctx, req.ID, res)
}
