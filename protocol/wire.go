package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	segjson "github.com/segmentio/encoding/json"
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

// zeroCopyAbove is the params size from which strings (and raw JSON) are
// decoded as views of the message rather than copies: a 60 MB message
// otherwise holds its body and a copy of its text at once, and a request
// near the 64 MB cap took several hundred MB (issue 31). The wire layer
// reads each message into a buffer of its own that nothing writes to
// afterwards, so the views stay valid; a handler that keeps a string keeps
// the message's memory, which is no more than a copy would take. Smaller
// params, nearly every message, take encoding/json as always.
const zeroCopyAbove = 1 << 20

func decodeParams(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	var err error
	if len(raw) >= zeroCopyAbove {
		err = decodeLarge(raw, v)
	} else {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		return Errorf(CodeInvalidParams, "invalid params: %v", err)
	}
	return nil
}

// decodeLarge is json.Unmarshal without copies, through segmentio's
// decoder (a drop-in for encoding/json, already built in for the MCP SDK).
func decodeLarge(raw []byte, v any) error {
	rest, err := segjson.Parse(raw, v, segjson.ZeroCopy)
	if err != nil {
		return err
	}
	if rest = bytes.TrimLeft(rest, " \t\r\n"); len(rest) > 0 {
		return fmt.Errorf("invalid character %q after top-level value", rest[0])
	}
	return nil
}
