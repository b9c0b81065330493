package server

import (
	"context"
	"strconv"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/workspace/tools"
	"go.uber.org/zap/zapcore"
)

// editorHost reaches the editor through server→client requests. They are
// issued from turn goroutines, never from the read loop, and cancelled over
// the wire when the turn's context ends. Safe for concurrent use.
type editorHost struct {
	client protocol.Client
	dirty  bool
	diags  bool
}

func (h *editorHost) DirtyBuffer(ctx context.Context, path string) (string, bool, error) {
	if !h.dirty {
		return "", false, nil
	}
	r, err := h.client.EditorDirtyBuffer(ctx, &protocol.DirtyBufferParams{Path: path})
	if err != nil {
		return "", false, err
	}
	return r.Text, r.Dirty, nil
}

func (h *editorHost) Diagnostics(ctx context.Context, path string) ([]tools.Diagnostic, error) {
	if !h.diags {
		return nil, errNoDiagnostics
	}
	r, err := h.client.EditorDiagnostics(ctx, &protocol.DiagnosticsParams{Path: path})
	if err != nil {
		return nil, err
	}
	out := make([]tools.Diagnostic, 0, len(r.Diagnostics))
	for _, d := range r.Diagnostics {
		out = append(out, tools.Diagnostic{Path: d.Path, Line: d.Line, Column: d.Column, Severity: d.Severity, Message: d.Message, Source: d.Source})
	}
	return out, nil
}

func (h *editorHost) ApplyEdit(ctx context.Context, path, content, expected string, del bool) (bool, string, error) {
	r, err := h.client.EditorApplyEdit(ctx, &protocol.ApplyEditParams{Path: path, Content: content, Expected: expected, Delete: del})
	if err != nil {
		return false, "", err
	}
	return r.Applied, r.Reason, nil
}

// TerminalOutput asks the editor for the active terminal's newest output.
func (h *editorHost) TerminalOutput(ctx context.Context, maxChars int) (string, error) {
	r, err := h.client.EditorTerminalOutput(ctx, &protocol.TerminalOutputParams{MaxChars: maxChars})
	if err != nil {
		return "", err
	}
	if !r.Available {
		if r.Reason == "" {
			r.Reason = "no terminal output is available"
		}
		return "", hostError(r.Reason)
	}
	if r.Name != "" {
		return "Terminal " + strconvQuote(r.Name) + ":\n" + r.Text, nil
	}
	return r.Text, nil
}

type hostError string

func (e hostError) Error() string { return string(e) }

const errNoDiagnostics = hostError("the editor does not provide diagnostics")

func strconvQuote(s string) string { return strconv.Quote(s) }

func logLevel(s string) zapcore.Level { return logging.ParseLevel(s) }
