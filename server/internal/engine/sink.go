package engine

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// turnSink persists and publishes what a run produces. The loop calls it
// from one goroutine at a time (tool events are serialised by the loop).
//
// Write policy: deltas are buffered by the StreamWriter (flushed at most
// every 500 ms); the assistant message with its tool calls is committed
// before any tool runs, the model's track entry and the chat's tool-call
// parts in one transaction (CommitLLMCalls); each tool result is committed
// durably as it arrives, with its track entry in the same transaction.
type turnSink struct {
	e     *Engine
	t     *turn
	w     *store.StreamWriter
	msgID string
	tag   string
	// sum is the usage of msgID's requests so far: the usage event
	// carries the message's running sum, as its stored usage will.
	sum    llm.Usage
	sumFor string
}

// messageUsage adds a request's usage to the current message's sum and
// returns the sum.
func (s *turnSink) messageUsage(u llm.Usage) llm.Usage {
	if s.sumFor != s.msgID {
		s.sum, s.sumFor = llm.Usage{}, s.msgID
	}
	s.sum.Add(u)
	return s.sum
}

func (s *turnSink) publish(ev Event) {
	ev.SessionID, ev.TurnID, ev.MessageID = s.t.sessionID, s.t.id, s.msgID
	if ev.SubAgentTag == "" {
		ev.SubAgentTag = s.tag
	}
	s.e.Bus.Publish(ev)
}

func (s *turnSink) warn(what string, err error) {
	if err != nil {
		s.e.log.Warn(what, zap.String("session", s.t.sessionID), zap.Error(err))
	}
}

func (s *turnSink) TextDelta(text string) {
	s.warn("persisting text", s.w.AppendText(text))
	s.publish(Event{Kind: kinds.TextDelta, Text: text})
}

func (s *turnSink) ReasoningDelta(text string) {
	s.warn("persisting reasoning", s.w.AppendReasoning(text))
	s.publish(Event{Kind: kinds.ReasoningDelta, Text: text})
}

func (s *turnSink) Retry(attempt int, reason string) {
	s.warn("discarding partial text", s.w.DiscardTail(context.Background()))
	s.publish(Event{Kind: kinds.Retry, Text: reason, Status: "retry"})
}

func (s *turnSink) Append(m llm.Message) {
	ctx := context.Background()
	switch m.Role {
	case llm.RoleAssistant:
		// A call through the deferred tools' entry is stored for the chat
		// as the tool it runs (agent.ShownCall), as its events show it.
		shown := agent.ShownCalls(m.ToolCalls)
		calls := make([]store.ToolCall, len(shown))
		for i, c := range shown {
			calls[i] = store.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Status: store.ToolPending}
		}
		s.warn("committing assistant message", s.w.CommitLLMCalls(ctx, m, calls...))
	default:
		s.warn("committing message", s.w.CommitLLM(ctx, m))
	}
}

func (s *turnSink) ToolStarted(c llm.ToolCall) {
	s.warn("tool status", s.w.SetToolCallStatus(context.Background(), c.ID, store.ToolRunning))
	s.publish(Event{Kind: kinds.ToolCall, Status: "running", Tool: &ToolInfo{CallID: c.ID, Name: c.Name, Arguments: c.Arguments, Summary: summarizeArgs(c)}})
}

func (s *turnSink) ToolFinished(c llm.ToolCall, res tools.Result, d time.Duration, msg llm.Message) {
	var meta json.RawMessage
	if res.Meta != nil {
		meta, _ = json.Marshal(res.Meta)
	}
	// The tool message for the model is committed in the same transaction
	// as the UI's result part.
	s.warn("committing tool result", s.w.AddToolResult(context.Background(), store.ToolResult{ToolCallID: c.ID, OK: res.OK, Output: res.Output, Meta: meta, Display: res.Display, DurationMs: d.Milliseconds()}, msg))
	status := "done"
	if !res.OK {
		status = "error"
	}
	s.publish(Event{Kind: kinds.ToolResult, Status: status, Tool: &ToolInfo{CallID: c.ID, Name: c.Name, OK: res.OK, Output: res.Output, DurationMs: d.Milliseconds(), Meta: res.Meta, Display: res.Display}})
}

func (s *turnSink) Usage(u llm.Usage) {
	s.publish(Event{Kind: kinds.Usage, Usage: &UsageInfo{Usage: s.messageUsage(u)}})
}

func (s *turnSink) Notice(text string) {
	s.warn("notice", s.w.AddNotice(context.Background(), store.NoticeInfo, text))
	s.publish(Event{Kind: kinds.Notice, Text: text})
}

func summarizeArgs(c llm.ToolCall) string {
	var m map[string]any
	if json.Unmarshal([]byte(c.Arguments), &m) != nil {
		return ""
	}
	for _, k := range []string{"filePath", "path", "pattern", "command", "dirPath", "objective", "goal"} {
		if v, ok := m[k].(string); ok && v != "" {
			if len(v) > 120 {
				v = v[:120] + "…"
			}
			return v
		}
	}
	return ""
}
