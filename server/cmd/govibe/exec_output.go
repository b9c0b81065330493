package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/llm"
)

// execPrinter renders a headless run as text, one final JSON object, or
// stream-json (one object per line). It is called from the Bus's single
// delivery goroutine and from execCmd after the subscription ended, never
// both at once.
type execPrinter struct {
	mode        string
	w           io.Writer
	text        strings.Builder
	usage       llm.Usage
	errors      []string
	atLineStart bool
}

func newExecPrinter(mode string, w io.Writer) *execPrinter {
	return &execPrinter{mode: mode, w: w, atLineStart: true}
}

func (p *execPrinter) init(sessionID, model string, tools []string) {
	if p.mode == "stream-json" {
		printJSON(p.w, map[string]any{"type": "init", "session_id": sessionID, "model": model, "tools": tools})
	}
}

func (p *execPrinter) event(ev engine.Event) {
	switch ev.Kind {
	case engine.KindTextDelta:
		p.text.WriteString(ev.Text)
		switch p.mode {
		case "stream-json":
			printJSON(p.w, map[string]any{"type": "text", "delta": ev.Text})
		case "text":
			fmt.Fprint(p.w, ev.Text)
			p.atLineStart = strings.HasSuffix(ev.Text, "\n")
		}
	case engine.KindReasoningDelta:
		if p.mode == "stream-json" {
			printJSON(p.w, map[string]any{"type": "reasoning", "delta": ev.Text})
		}
	case engine.KindRetry:
		p.text.Reset()
		if p.mode == "stream-json" {
			printJSON(p.w, map[string]any{"type": "error", "message": "stream interrupted, retrying: " + ev.Text})
		}
	case engine.KindToolCall:
		switch p.mode {
		case "stream-json":
			printJSON(p.w, map[string]any{"type": "tool_call", "id": ev.Tool.CallID, "name": ev.Tool.Name, "arguments": ev.Tool.Arguments})
		case "text":
			p.newline()
			fmt.Fprintf(p.w, "▸ %s %s\n", ev.Tool.Name, ev.Tool.Summary)
			p.atLineStart = true
		}
	case engine.KindToolResult:
		switch p.mode {
		case "stream-json":
			printJSON(p.w, map[string]any{"type": "tool_result", "id": ev.Tool.CallID, "ok": ev.Tool.OK, "output": ev.Tool.Output})
		case "text":
			if !ev.Tool.OK {
				fmt.Fprintf(p.w, "  ✗ %s\n", firstLine(ev.Tool.Output))
			}
		}
	case engine.KindUsage:
		if ev.Usage != nil {
			p.usage.Add(ev.Usage.Usage)
		}
	case engine.KindError:
		if ev.Err != nil {
			p.fail(fmt.Errorf("%s", ev.Err.Message))
		}
	case engine.KindCompaction:
		// The divider's text says what compaction did (or why it failed).
		if info, ok := ev.Payload.(engine.CompactionInfo); ok && p.mode == "text" && info.Notice != "" {
			p.newline()
			fmt.Fprintf(p.w, "note: %s\n", info.Notice)
			p.atLineStart = true
		}
	case engine.KindNotice:
		if p.mode == "text" {
			p.newline()
			fmt.Fprintf(p.w, "note: %s\n", ev.Text)
			p.atLineStart = true
		}
	}
}

func (p *execPrinter) newline() {
	if !p.atLineStart {
		fmt.Fprintln(p.w)
		p.atLineStart = true
	}
}

func (p *execPrinter) fail(err error) {
	p.errors = append(p.errors, err.Error())
	switch p.mode {
	case "stream-json":
		printJSON(p.w, map[string]any{"type": "error", "message": err.Error()})
	default:
		p.newline()
		fmt.Fprintln(stderr, "error:", err)
	}
}

func (p *execPrinter) finish(st agent.Status) {
	result := map[string]any{"type": "result", "status": string(st), "usage": map[string]any{
		"prompt_tokens": p.usage.PromptTokens, "completion_tokens": p.usage.CompletionTokens, "cached_tokens": p.usage.CachedTokens}}
	switch p.mode {
	case "stream-json":
		printJSON(p.w, result)
	case "json":
		result["text"] = p.text.String()
		if len(p.errors) > 0 {
			result["errors"] = p.errors
		}
		printJSON(p.w, result)
	case "text":
		p.newline()
		if st != agent.StatusDone {
			fmt.Fprintf(stderr, "run ended: %s\n", st)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
