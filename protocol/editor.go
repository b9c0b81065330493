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

// TerminalOutputParams asks for the active terminal's recent output, for
// an @terminal mention.
type TerminalOutputParams struct {
	// MaxChars bounds the text returned (its newest part is kept).
	MaxChars int `json:"maxChars"`
}

type TerminalOutputResult struct {
	// Available is false when no terminal is open or its output cannot be
	// read (no shell integration); Reason then says why.
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	// Name is the terminal's name as the editor shows it.
	Name string `json:"name,omitempty"`
	// Text is the newest output, at most MaxChars characters.
	Text string `json:"text,omitempty"`
}
