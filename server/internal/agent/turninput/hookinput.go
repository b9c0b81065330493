package turninput

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/host/config"
)

// Lifecycle hooks (Claude Code's format) are hooks.Manager; what they
// read about the session comes from here: its approval mode, its
// transcript, and the user's govibe.hooks setting. The context a
// UserPromptSubmit or SessionStart hook adds goes into the user message,
// like the rest of this package's input.

// PermissionMode is the session's approval mode in Claude Code's words,
// as hooks read it in permission_mode (hooks.ManagerOptions.PermissionMode).
func (a *Assembler) PermissionMode(ctx context.Context, sid string) string {
	cs := a.d.Settings()
	switch {
	case a.d.Mode(ctx, sid) == modes.Plan:
		return "plan"
	case a.d.Headless && a.d.Approve == "all":
		return "bypassPermissions"
	case a.d.Headless && a.d.Approve == "edits", !a.d.Headless && (cs.AutoApprove.Edits || !cs.ConfirmChanges):
		return "acceptEdits"
	}
	return "default"
}

// Transcript writes the session's latest messages as the JSONL file
// Claude Code hands hooks (transcript_path), in the state folder, and
// returns its path; "" when the session cannot be read
// (hooks.ManagerOptions.Transcript).
func (a *Assembler) Transcript(ctx context.Context, sid string) string {
	page, err := a.d.Store.LoadMessages(ctx, sid, 0, hooks.MaxTranscript)
	if err != nil {
		a.d.Log.Warn("reading the session for a hook's transcript", zap.String("session", sid), zap.Error(err))
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
	path := filepath.Join(a.d.StateDir, "transcripts", sid+".jsonl")
	if err := hooks.WriteTranscript(path, sid, a.d.Roots[0], a.d.Roots, entries); err != nil {
		a.d.Log.Warn("writing a hook's transcript", zap.String("path", path), zap.Error(err))
		return ""
	}
	return path
}

// UserHooks reads the govibe.hooks setting (an object of the settings
// schema, user scope only, so workspace values never reach here). Older
// clients sent it flattened ("hooks.PreToolUse": [...]); both are read.
func UserHooks(v config.Values) json.RawMessage {
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
