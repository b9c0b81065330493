package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/modes"
)

// Lifecycle hooks (Claude Code's format) are hooks.Manager; the engine
// wires it: the settings and trust it loads under, the chat event each run
// becomes, and the points of a session and a turn where events fire
// (UserPromptSubmit and Stop in the turn, SubagentStop, Session*,
// Notification, PreCompact from the compactor's host).

// permissionMode is the session's approval mode in Claude Code's words,
// as hooks read it in permission_mode.
func (e *Engine) permissionMode(ctx context.Context, sid string) string {
	cs := config.Typed(e.Settings())
	// A running turn answers from its view; no store read per hook.
	e.mu.Lock()
	t := e.running[sid]
	e.mu.Unlock()
	var md modes.Mode
	if t != nil {
		md = t.mode.Mode()
	} else {
		md = e.Modes.Mode(ctx, sid)
	}
	switch {
	case md == modes.Plan:
		return "plan"
	case e.opts.Headless && e.opts.Approve == "all":
		return "bypassPermissions"
	case e.opts.Headless && e.opts.Approve == "edits", !e.opts.Headless && (cs.AutoApprove.Edits || !cs.ConfirmChanges):
		return "acceptEdits"
	}
	return "default"
}

// hookTranscript writes the session's latest messages as the JSONL file
// Claude Code hands hooks (transcript_path), in the state folder, and
// returns its path; "" when the session cannot be read.
func (e *Engine) hookTranscript(ctx context.Context, sid string) string {
	page, err := e.Store.LoadMessages(ctx, sid, 0, hooks.MaxTranscript)
	if err != nil {
		e.log.Warn("reading the session for a hook's transcript", zap.String("session", sid), zap.Error(err))
		return ""
	}
	entries := make([]hooks.TranscriptEntry, 0, len(page.Messages))
	for _, m := range page.Messages {
		if m.HiddenFromLLM {
			continue
		}
		te := hooks.TranscriptEntry{ID: m.ID, Role: string(m.Role), Time: m.Created, Text: m.Text()}
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				te.Calls = append(te.Calls, hooks.TranscriptCall{ID: p.ToolCall.ID, Name: p.ToolCall.Name, Args: json.RawMessage(p.ToolCall.Arguments)})
			case p.ToolResult != nil:
				te.Result = &hooks.TranscriptResult{CallID: p.ToolResult.ToolCallID, Output: p.ToolResult.Output, OK: p.ToolResult.OK}
			}
		}
		entries = append(entries, te)
	}
	path := filepath.Join(e.opts.StateDir, "transcripts", sid+".jsonl")
	if err := hooks.WriteTranscript(path, sid, e.opts.Roots[0], e.opts.Roots, entries); err != nil {
		e.log.Warn("writing a hook's transcript", zap.String("path", path), zap.Error(err))
		return ""
	}
	return path
}

// userHooks reads the govibe.hooks setting (an object of the settings
// schema, user scope only, so workspace values never reach here). Older
// clients sent it flattened ("hooks.PreToolUse": [...]); both are read.
func userHooks(v config.Values) json.RawMessage {
	m := map[string]any{}
	for k, val := range config.Typed(v).Hooks {
		m[k] = val
	}
	for k, val := range v {
		if ev, ok := strings.CutPrefix(k, "hooks."); ok {
			m[ev] = val
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}
