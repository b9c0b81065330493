package protocol

// Server→client requests. They are issued from turn goroutines, never from
// the read loop, so awaiting the reply cannot deadlock the connection.

type ApplyEditParams struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	// Delete removes the file instead.
	Delete bool `json:"delete,omitempty"`
	// Expected is the text the server believes the file holds; the client
	// refuses when its open buffer is dirty and differs.
	Expected string `json:"expected"`
}

type ApplyEditResult struct {
	Applied bool `json:"applied"`
	// Reason explains a refusal, e.g. "the file has unsaved changes".
	Reason string `json:"reason,omitempty"`
}

type DirtyBufferParams struct {
	Path string `json:"path"`
}

type DirtyBufferResult struct {
	Dirty bool   `json:"dirty"`
	Text  string `json:"text,omitempty"`
}

type DiagnosticsParams struct {
	Path string `json:"path,omitempty"`
}

type Diagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"`
}

type DiagnosticsResult struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
}
