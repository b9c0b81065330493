package server

import (
	"encoding/json"

	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/workspace/rollback"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/sessions"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

func toChatEvent(e engine.Event) protocol.ChatEvent {
	w := protocol.ChatEvent{SessionID: e.SessionID, Seq: e.Seq, TurnID: e.TurnID, Kind: e.Kind, MessageID: e.MessageID,
		SubAgentTag: e.SubAgentTag, Text: e.Text, Status: e.Status}
	if e.Usage != nil {
		u := eventview.Usage(e.Usage.Usage)
		w.Usage = &u
	}
	if e.Tool != nil {
		w.Tool = &protocol.ToolEvent{CallID: e.Tool.CallID, Name: e.Tool.Name, Arguments: e.Tool.Arguments, Summary: e.Tool.Summary,
			OK: e.Tool.OK, Output: e.Tool.Output, DurationMs: e.Tool.DurationMs, Meta: e.Tool.Meta, Display: e.Tool.Display}
	}
	if e.Err != nil {
		w.Error = &protocol.ErrorInfo{Message: e.Err.Message, Code: e.Err.Code, Action: e.Err.Action}
	}
	if e.Kind == kinds.Message {
		role := "user"
		// The tag goes on the message too, as session/load has it: a plan
		// step's prompt is grouped under its agent while it runs.
		w.Message = &protocol.Message{ID: e.MessageID, SessionID: e.SessionID, Seq: e.MessageSeq, TurnID: e.TurnID, Role: role, Status: "done",
			SubAgentTag: e.SubAgentTag, Origin: e.Origin, BTW: e.BTW, Parts: []protocol.Part{{Type: "text", Text: e.Text}}}
	}
	if e.Extras != nil && w.Message != nil {
		setExtras(w.Message, *e.Extras)
	}
	if e.Divider != nil {
		w.Message = compactionMessage(e, *e.Divider)
	}
	w.Put(e.Payload)
	if e.Kind == kinds.TurnStarted {
		w.Message = &protocol.Message{ID: e.MessageID, SessionID: e.SessionID, Seq: e.MessageSeq, TurnID: e.TurnID, Role: "assistant", Status: "pending",
			SubAgentTag: e.SubAgentTag, BTW: e.BTW, Parts: []protocol.Part{}}
	}
	return w
}

func toConfirmRequest(c approval.Confirm) protocol.ConfirmRequest {
	w := protocol.ConfirmRequest{ID: c.ID, SessionID: c.SessionID, TurnID: c.TurnID, ToolCallID: c.ToolCallID, Kind: c.Kind,
		Path: c.Path, RelPath: c.RelPath, Original: c.Original, Proposed: c.Proposed, IsNew: c.IsNew, Delete: c.Delete,
		AutoAcceptMs: c.AutoAcceptMs, Command: c.Command, Cwd: c.Cwd, Question: c.Question, Options: c.Options,
		Server: c.Server, Tool: c.Tool, URL: c.URL, Headers: c.Headers, AllowRules: c.AllowRules, DialogID: c.DialogID, Notice: c.Notice}
	for _, x := range c.Thread {
		w.Thread = append(w.Thread, protocol.QuestionExchange{Question: x.Question, Reply: x.Reply})
	}
	if c.Analysis != nil {
		w.Analysis = &protocol.ShellAnalysis{Class: c.Analysis.Class, Reasons: c.Analysis.Reasons}
	}
	if c.Review != nil {
		r := eventview.Review(*c.Review)
		w.Review = &r
	}
	return w
}

func toSessionInfo(s sessions.Summary) protocol.SessionInfo {
	return protocol.SessionInfo{ID: s.ID, Title: s.Title, Created: s.Created.UnixMilli(), Updated: s.Updated.UnixMilli(),
		Model: s.Model, MessageCount: s.MessageCount, Status: string(s.Status), Running: s.Running, Cost: s.Cost}
}

func toMessage(m store.Message) protocol.Message {
	w := protocol.Message{ID: m.ID, SessionID: m.SessionID, Seq: m.Seq, Role: string(m.Role), Status: string(m.Status),
		SubAgentTag: m.SubAgentTag, HiddenFromLLM: m.HiddenFromLLM, BTW: m.BTWBranch != "", Origin: m.Origin, Created: m.Created.UnixMilli(),
		Parts: make([]protocol.Part, 0, len(m.Parts))}
	if m.Usage != nil {
		u := eventview.Usage(*m.Usage)
		w.Usage = &u
	}
	for _, p := range m.Parts {
		wp := protocol.Part{Type: string(p.Kind), Text: p.Text}
		switch {
		case p.ToolCall != nil:
			wp.ToolCallID, wp.Name, wp.Arguments, wp.Status = p.ToolCall.ID, p.ToolCall.Name, p.ToolCall.Arguments, string(p.ToolCall.Status)
		case p.ToolResult != nil:
			wp.ToolCallID, wp.OK, wp.Output, wp.Display = p.ToolResult.ToolCallID, p.ToolResult.OK, p.ToolResult.Output, p.ToolResult.Display
			wp.DurationMs = p.ToolResult.DurationMs
			if len(p.ToolResult.Meta) > 0 {
				var meta any
				if json.Unmarshal(p.ToolResult.Meta, &meta) == nil {
					wp.Meta = meta
				}
			}
		case p.Notice != nil:
			wp.Level, wp.Text = string(p.Notice.Level), p.Notice.Text
		}
		w.Parts = append(w.Parts, wp)
	}
	return w
}

func toSnapshotInfo(s rollback.SnapshotInfo) protocol.SnapshotInfo {
	w := protocol.SnapshotInfo{ID: s.ID, Root: s.Root, Time: s.Time.UnixMilli(), SessionID: s.SessionID, TurnID: s.TurnID, Turn: s.Turn,
		Message: s.Message, Reason: s.Reason, ChangedFiles: s.ChangedFiles}
	for _, sk := range s.Skipped {
		w.Skipped = append(w.Skipped, sk.Path+" ("+sk.Reason+")")
	}
	return w
}

// toKeptChanges lists the paths a restore left alone, with why.
func toKeptChanges(cs []snapshot.Change) []protocol.FileChange {
	var out []protocol.FileChange
	for _, c := range cs {
		if c.Kind == snapshot.Kept {
			out = append(out, protocol.FileChange{Path: c.Path, Kind: string(c.Kind), Reason: c.Reason})
		}
	}
	return out
}

func toFileChanges(cs []snapshot.Change) []protocol.FileChange {
	out := make([]protocol.FileChange, 0, len(cs))
	for _, c := range cs {
		if c.Kind == snapshot.Kept {
			continue
		}
		out = append(out, protocol.FileChange{Path: c.Path, Kind: string(c.Kind)})
	}
	return out
}

// setExtras puts a user message's context files and attachments on it.
func setExtras(m *protocol.Message, ex turninput.Extras) {
	m.ContextFiles = ex.ContextFiles
	for _, a := range ex.Attachments {
		m.Attachments = append(m.Attachments, protocol.Attachment{Kind: string(a.Kind), Raw: a.Raw, Chars: a.Chars, Truncated: a.Truncated, Error: a.Error})
	}
}
