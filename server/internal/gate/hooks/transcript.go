package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// Claude Code hands every hook transcript_path, a JSONL file of the
// conversation that hooks read (the last assistant message, the tools
// used). GoVibe keeps sessions in a database, so the manager writes that
// file, in Claude Code's line shape, for the hooks that run.

// TranscriptEntry is one message of the conversation.
type TranscriptEntry struct {
	ID   string
	Role string // user, assistant or tool
	Time time.Time
	Text string
	// Calls are an assistant message's tool calls; Result a tool
	// message's result.
	Calls  []TranscriptCall
	Result *TranscriptResult
}

// TranscriptCall is one tool call, by GoVibe's name and arguments.
type TranscriptCall struct {
	ID, Name string
	Args     json.RawMessage
}

// TranscriptResult is what a tool returned.
type TranscriptResult struct {
	CallID, Output string
	OK             bool
}

// MaxTranscript bounds the messages written (the latest ones).
const MaxTranscript = 500

// WriteTranscript writes entries to path as JSONL, one line per message:
// {"type", "uuid", "sessionId", "timestamp", "cwd", "message": {"role",
// "content": [blocks]}}, with text, tool_use (Claude Code's tool names and
// input fields) and tool_result blocks. The file is replaced atomically,
// so a hook never reads half of it.
func WriteTranscript(path, sid, cwd string, roots []string, entries []TranscriptEntry) error {
	if len(entries) > MaxTranscript {
		entries = entries[len(entries)-MaxTranscript:]
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range entries {
		role, kind := e.Role, e.Role
		var content []map[string]any
		if e.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": e.Text})
		}
		for _, c := range e.Calls {
			v := claudeView(c.Name, c.Args, roots)
			content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": v.Name, "input": v.Input})
		}
		if r := e.Result; r != nil {
			// Claude Code records tool results as user messages.
			role, kind = "user", "user"
			content = append(content, map[string]any{"type": "tool_result", "tool_use_id": r.CallID, "content": r.Output, "is_error": !r.OK})
		}
		if content == nil {
			continue
		}
		line := map[string]any{"type": kind, "uuid": e.ID, "sessionId": sid, "timestamp": e.Time.UTC().Format(time.RFC3339Nano),
			"cwd": cwd, "message": map[string]any{"role": role, "content": content}}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return fsatomic.WriteFile(path, buf.Bytes(), 0o600)
}
