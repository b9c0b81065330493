// Package agent is the ReAct loop: model → tool calls → results → model,
// until a reply has no tool calls. It knows nothing about sessions, storage
// or the wire; the engine feeds it history and a Sink.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/tools"
)

// Status is how a run ended.
type Status string

const (
	StatusDone      Status = "done"
	StatusError     Status = "error"
	StatusCancelled Status = "cancelled"
	StatusMaxTurns  Status = "max_turns"
)

// ToolCalling modes.
const (
	ToolCallingNative = "native"
	ToolCallingText   = "text"
	ToolCallingAuto   = "auto"
)

// Run is one agent run. A Run is used by one goroutine.
type Run struct {
	Client llm.Client
	Tools  []tools.Tool
	Env    *tools.Env
	// System is the system prompt; it must stay byte-identical across turns
	// of a session so the provider's prefix cache keeps hitting.
	System string
	// MaxRounds caps tool rounds; <0 means unlimited. MaxRoundsSetting
	// names the setting that set it, for the notice when it is hit.
	MaxRounds        int
	MaxRoundsSetting string
	ToolCalling      string
	SessionID        string
	MaxTokens        int
	// Blocked names tools that are not offered and are refused if called
	// anyway (role restrictions of executors and evaluators).
	Blocked map[string]string
	// Refused names tools that stay offered (so the request's tool list,
	// and with it the provider's prefix cache, does not change) but are
	// refused when called, e.g. create_todo_list in a side conversation.
	Refused map[string]string
	// StopAfter makes the run stop once a round calls one of these tools
	// (create_todo_list hands over to the scheduler).
	StopAfter map[string]bool
	// Translate localises user-facing notices (nil: English).
	Translate func(msg string, args ...any) string
	// Prepare, when set, may rewrite the message list right before each
	// model call (sanitizer, compaction); it returns what is sent.
	Prepare func(ctx context.Context, msgs []llm.Message) ([]llm.Message, error)
}

// Outcome reports how a run ended.
type Outcome struct {
	Status   Status
	Err      error
	Rounds   int
	Usage    llm.Usage
	Final    string // the last assistant text
	Stopped  string // the StopAfter tool that ended the run
	Messages []llm.Message
}

// Execute runs the loop on history (which must not include the system
// prompt) and returns the messages it appended.
func (r *Run) Execute(ctx context.Context, history []llm.Message, sink Sink) Outcome {
	out := Outcome{}
	msgs := append([]llm.Message(nil), history...)
	appendMsg := func(m llm.Message) {
		msgs = append(msgs, m)
		out.Messages = append(out.Messages, m)
		sink.Append(m)
	}
	mode := r.ToolCalling
	if mode == "" {
		mode = ToolCallingAuto
	}
	corrections := 0
	for round := 0; ; round++ {
		if err := ctx.Err(); err != nil {
			out.Status = StatusCancelled
			return out
		}
		if r.MaxRounds >= 0 && round > r.MaxRounds {
			out.Status = StatusMaxTurns
			setting := r.MaxRoundsSetting
			if setting == "" {
				setting = "govibe.maxInteractions"
			}
			sink.Notice(r.tr("Stopped after %d tool rounds (%s). Send a message to continue.", r.MaxRounds, setting))
			return out
		}
		out.Rounds = round
		req := llm.Request{SessionID: r.SessionID, MaxTokens: r.MaxTokens}
		system := r.System
		if mode == ToolCallingText {
			system += "\n\n" + textProtocolInstructions(r.offered())
		} else {
			req.Tools = toolDefs(r.offered())
		}
		send := msgs
		if r.Prepare != nil {
			var err error
			if send, err = r.Prepare(ctx, msgs); err != nil {
				out.Status, out.Err = StatusError, err
				return out
			}
		}
		req.Messages = append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, send...)
		resp, err := r.Client.Stream(ctx, req, func(e llm.Event) {
			switch e.Kind {
			case llm.EventText:
				sink.TextDelta(e.Text)
			case llm.EventReasoning:
				sink.ReasoningDelta(e.Text)
			case llm.EventRetry:
				sink.Retry(e.Attempt, e.Reason)
			}
		})
		if err != nil {
			if ctx.Err() != nil {
				out.Status = StatusCancelled
				return out
			}
			if mode == ToolCallingAuto && isToolsUnsupported(err) {
				mode = ToolCallingText
				sink.Notice(r.tr("This endpoint does not accept tool definitions; switching to the text tool-call protocol."))
				round--
				continue
			}
			out.Status, out.Err = StatusError, err
			return out
		}
		sink.Usage(resp.Usage)
		out.Usage.Add(resp.Usage)
		calls := resp.ToolCalls
		content := resp.Content
		if mode == ToolCallingText {
			parsed, perr := ParseTextToolCalls(content)
			if perr != nil {
				appendMsg(llm.Message{Role: llm.RoleAssistant, Content: content, ReasoningContent: resp.ReasoningContent})
				if corrections >= 2 {
					out.Status, out.Err = StatusError, fmt.Errorf("the model kept producing malformed tool calls: %v", perr)
					return out
				}
				corrections++
				sink.Notice(r.tr("Malformed tool call; asking the model to correct it."))
				appendMsg(llm.Message{Role: llm.RoleUser, Content: "Your <tool_call> block could not be used: " + perr.Error() + ". Reply again with a corrected block."})
				continue
			}
			corrections = 0
			calls = parsed.Calls
		}
		fillRawContent(content, calls)
		appendMsg(llm.Message{Role: llm.RoleAssistant, Content: content, ReasoningContent: resp.ReasoningContent, ToolCalls: nativeOnly(mode, calls)})
		out.Final = content
		if len(calls) == 0 {
			out.Status = StatusDone
			return out
		}
		r.runTools(ctx, calls, sink, func(c llm.ToolCall, res tools.Result) llm.Message {
			var m llm.Message
			if mode == ToolCallingText {
				m = llm.Message{Role: llm.RoleUser, Content: formatTextResult(c, res)}
			} else {
				m = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: toolContent(res)}
			}
			msgs = append(msgs, m)
			out.Messages = append(out.Messages, m)
			return m
		})
		if ctx.Err() != nil {
			out.Status = StatusCancelled
			return out
		}
		for _, c := range calls {
			if r.StopAfter[c.Name] {
				out.Status, out.Stopped = StatusDone, c.Name
				return out
			}
		}
	}
}

func nativeOnly(mode string, calls []llm.ToolCall) []llm.ToolCall {
	if mode == ToolCallingText {
		return nil
	}
	return calls
}

func isToolsUnsupported(err error) bool {
	return errors.Is(err, llm.ErrToolsUnsupported)
}

func (r *Run) offered() []tools.Tool {
	var out []tools.Tool
	for _, t := range r.Tools {
		if _, blocked := r.Blocked[t.Name()]; !blocked {
			out = append(out, t)
		}
	}
	return out
}

func (r *Run) lookup(name string) (tools.Tool, string) {
	if why, blocked := r.Blocked[name]; blocked {
		return nil, fmt.Sprintf("tool %q is not available to this agent: %s", name, why)
	}
	if why, refused := r.Refused[name]; refused {
		return nil, fmt.Sprintf("tool %q cannot be used now: %s", name, why)
	}
	for _, t := range r.Tools {
		if t.Name() == name {
			return t, ""
		}
	}
	var names []string
	for _, t := range r.offered() {
		names = append(names, t.Name())
	}
	return nil, fmt.Sprintf("unknown tool %q; available tools: %s", name, strings.Join(names, ", "))
}

// runTools gives every call exactly one result. Consecutive read-only calls
// run in parallel; anything that writes runs alone, in order, so the model's
// sequence of edits applies as written.
//
// Results are recorded in the order they complete: record builds the
// history message and the sink persists it at once, so a crash never loses
// a finished result and the stored order equals what the model is sent.
func (r *Run) runTools(ctx context.Context, calls []llm.ToolCall, sink Sink, record func(llm.ToolCall, tools.Result) llm.Message) {
	var sinkMu sync.Mutex
	finish := func(c llm.ToolCall, res tools.Result, d time.Duration) {
		sinkMu.Lock()
		defer sinkMu.Unlock()
		sink.ToolFinished(c, res, d, record(c, res))
	}
	runOne := func(i int) {
		c := calls[i]
		sinkMu.Lock()
		sink.ToolStarted(c)
		sinkMu.Unlock()
		start := time.Now()
		finish(c, r.runOne(ctx, c), time.Since(start))
	}
	for i := 0; i < len(calls); {
		if ctx.Err() != nil {
			for ; i < len(calls); i++ {
				finish(calls[i], tools.Fail("interrupted: not executed (the user stopped the turn)"), 0)
			}
			break
		}
		j := i
		for j < len(calls) && r.isReadOnly(calls[j].Name) {
			j++
		}
		if j > i+1 {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Add(1)
				go func(k int) { defer wg.Done(); runOne(k) }(k)
			}
			wg.Wait()
			i = j
			continue
		}
		runOne(i)
		i++
	}
}

func (r *Run) isReadOnly(name string) bool {
	t, _ := r.lookup(name)
	return t != nil && t.ReadOnly()
}

func (r *Run) runOne(ctx context.Context, c llm.ToolCall) (res tools.Result) {
	t, why := r.lookup(c.Name)
	if t == nil {
		return tools.Fail(why)
	}
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		args = "{}"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return tools.Fail(fmt.Sprintf("invalid JSON arguments for %s: %v. Send a JSON object matching the tool's schema.", c.Name, err))
	}
	defer func() {
		if p := recover(); p != nil {
			res = tools.Fail(fmt.Sprintf("tool %s failed unexpectedly: %v", c.Name, p))
		}
	}()
	res, err := t.Run(tools.WithCallID(ctx, c.ID), r.Env, json.RawMessage(args))
	if err != nil {
		if ctx.Err() != nil {
			return tools.Fail("interrupted: the user stopped the turn while " + c.Name + " was running")
		}
		return tools.Fail(fmt.Sprintf("%s failed: %v", c.Name, err))
	}
	return res
}

func toolContent(res tools.Result) string {
	if res.OK {
		return res.Output
	}
	return "Error: " + res.Output
}

func toolDefs(ts []tools.Tool) []llm.ToolDef {
	defs := make([]llm.ToolDef, 0, len(ts))
	for _, t := range ts {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return defs
}

func (r *Run) tr(msg string, args ...any) string {
	if r.Translate != nil {
		return r.Translate(msg, args...)
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}
