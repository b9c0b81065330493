package protocol

// JSON-RPC error codes. The -327xx range is reserved by JSON-RPC; LSP uses
// -32800 for cancelled requests and we follow it so vscode-jsonrpc treats
// our cancellations like a language server's.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800

	// Application codes.
	CodeServerNotInitialized = -32002
	CodeVersionMismatch      = -33001
	CodeSessionNotFound      = -33002
	CodeBusy                 = -33003
	CodeNotFound             = -33004
	CodeInvalidState         = -33005
)

// Error is a JSON-RPC error a handler returns to choose its code; the wire
// layer converts it to the response error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: sprintf(format, args...)}
}
