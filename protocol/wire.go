package protocol

import (
	"bytes"
	"context"
	"encoding/json"
)

// Caller sends server→client messages; the wire layer implements it.
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
	Notify(ctx context.Context, method string, params any) error
}

// IsNotification reports whether a client→server method is a notification.
func IsNotification(method string) bool { return methodInfo[method].notify }

// IsOrdered reports whether a client→server method must be handled in
// arrival order. Unknown methods are ordered so that their error replies
// keep their place.
func IsOrdered(method string) bool {
	info, ok := methodInfo[method]
	return !ok || info.ordered
}

func decodeParams(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return Errorf(CodeInvalidParams, "invalid params: %v", err)
	}
	return nil
}
