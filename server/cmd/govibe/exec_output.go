package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// execPrinter renders a headless run as text, one final JSON object, or
// stream-json (one object per line). It is called from the Bus's single
// delivery goroutine and from execCmd after the subscription ended, never
// both at once.
type execPrinter struct {
	mode string
	w    io.Writer
	// tr localises the printer's own words (the engine's language).
	tr func(string, ...any) string
	// text is the run's text; rounds are separated by a blank line.
	// segStart is where the current round's text began (a retry drops
	// only that round's partial text), and newSeg says the next delta
	// starts a new round.
	text     strings.Builder
	segStart int
	newSeg   bool
	// usage sums the per-request events; turnUsage is the turn's total
	// from turnFinished (compaction and every request included), which
	// wins when present.
	usage     llm.Usage
	cost      float64
	turnUsage *engine.UsageInfo
	// session is the session's totals when the run ended (execCmd sets
	// it); budget says the run stopped at the session budget.
	session     llm.Usage
	budget      bool
	errors      []string
	atLineStart bool
	// notifications are show_notification's messages, for json output.
	notifications []map[string]string
}

// segSep separates the text of consecutive rounds in json output.
const segSep = "\n\n"

// agentTag is the sub-agent an event comes from ("" for the main run):
// executor:N, evaluator:N, investigate or agent:<name>.
func agentTag(ev engine.Event) string {
	if ev.SubAgentTag == engine.TagFree {
		return ""
	}
	return ev.SubAgentTag
}

// obj is a stream-json line, tagged with its sub-agent when it has one.
func obj(ev engine.Event, kv map[string]any) map[string]any {
	if tag := agentTag(ev); tag != "" {
		kv["agent"] = tag
	}
	return kv
}

// prefix is the text-mode marker of a sub-agent's lines.
func prefix(ev engine.Event) string {
	if tag := agentTag(ev); tag != "" {
		return "[" + tag + "] "
	}
	return ""
}

func newExecPrinter(mode string, w io.Writer, tr func(string, ...any) string) *execPrinter {
	return &execPrinter{mode: mode, w: w, tr: tr, atLineStart: true}
}

func (p *execPrinter) init(sessionID, model string, tools []string) {
	if p.mode == "stream-json" {
		printJSON(p.w, map[string]any{"type": "init", "session_id": sessionID, "model": model, "tools": tools})
	}
}

func (p *execPrinter) event(ev engine.Event) {
	switch ev.Kind {
	case kinds.TextDelta:
		if p.newSeg && p.text.Len() > 0 {
			p.text.WriteString(segSep)
		}
		if p.newSeg {
			p.segStart, p.newSeg = p.text.Len(), false
		}
		p.text.WriteString(ev.Text)
		switch p.mode {
		case "stream-json":
			printJSON(p.w, obj(ev, map[string]any{"type": "text", "delta": ev.Text}))
		case "text":
			fmt.Fprint(p.w, ev.Text)
			p.atLineStart = strings.HasSuffix(ev.Text, "\n")
		}
	case kinds.ReasoningDelta:
		if p.mode == "stream-json" {
			printJSON(p.w, obj(ev, map[string]any{"type": "reasoning", "delta": ev.Text}))
		}
	case kinds.Retry:
		// Only the interrupted round's partial text is discarded.
		whole := p.text.String()[:p.segStart]
		p.text.Reset()
		p.text.WriteString(whole)
		if p.mode == "stream-json" {
			printJSON(p.w, obj(ev, map[string]any{"type": "error", "message": "stream interrupted, retrying: " + ev.Text}))
		}
	case kinds.ToolCall:
		p.newSeg = true
		switch p.mode {
		case "stream-json":
			printJSON(p.w, obj(ev, map[string]any{"type": "tool_call", "id": ev.Tool.CallID, "name": ev.Tool.Name, "arguments": ev.Tool.Arguments}))
		case "text":
			p.newline()
			fmt.Fprintf(p.w, "%s▸ %s %s\n", prefix(ev), ev.Tool.Name, ev.Tool.Summary)
			p.atLineStart = true
		}
	case kinds.ToolResult:
		p.newSeg = true
		switch p.mode {
		case "stream-json":
			line := obj(ev, map[string]any{"type": "tool_result", "id": ev.Tool.CallID, "ok": ev.Tool.OK, "output": ev.Tool.Output})
			if ev.Tool.Display != "" {
				line["display"] = ev.Tool.Display
			}
			if a := autoApprovedOf(ev.Tool.Meta); a != nil {
				line["auto_approved"] = a
			}
			if sb := sandboxOf(ev.Tool.Meta); sb.Sandbox != "" {
				// How the command ran (read-only | workspace-write; no
				// network | network: a, b | none) and what it was denied.
				line["sandbox"] = sb.Sandbox
				if sb.Denial != nil {
					line["sandbox_denial"] = sb.Denial
				}
			}
			printJSON(p.w, line)
		case "text":
			if !ev.Tool.OK {
				// A refusal worded for people is shown in their language.
				fmt.Fprintf(p.w, "  %s✗ %s\n", prefix(ev), firstLine(firstNonEmptyText(ev.Tool.Display, ev.Tool.Output)))
			}
		}
	case kinds.Usage:
		// A request ended: the next text is a new round.
		p.newSeg = true
		if ev.Usage != nil {
			p.usage.Add(ev.Usage.Usage)
			p.cost += ev.Usage.Cost
			if p.mode == "stream-json" {
				// One line per model request: its cache hit, cost and,
				// when the cache missed, why.
				printJSON(p.w, obj(ev, map[string]any{"type": "usage", "usage": usageJSON(ev.Usage.Usage)}))
			}
		}
	case kinds.TurnStarted, kinds.Message:
		p.newSeg = true
	case kinds.TurnFinished:
		if ev.Usage != nil {
			u := *ev.Usage
			p.turnUsage = &u
		}
	case kinds.Error:
		if ev.Err != nil && ev.Err.Code == "budget" {
			p.budget = true
		}
		if ev.Err != nil {
			p.fail(fmt.Errorf("%s", ev.Err.Message))
		}
	case kinds.Compaction:
		// The divider's text says what compaction did (or why it failed).
		if info := ev.Divider; info != nil && p.mode == "text" && info.Notice != "" {
			p.newline()
			fmt.Fprintln(p.w, p.tr("note: %s", info.Notice))
			p.atLineStart = true
		}
	case kinds.Notification:
		p.notify(ev)
	case kinds.Notice:
		switch p.mode {
		case "stream-json":
			printJSON(p.w, obj(ev, map[string]any{"type": "notice", "message": ev.Text}))
		case "text":
			p.newline()
			fmt.Fprintf(p.w, "%s%s\n", prefix(ev), p.tr("note: %s", ev.Text))
			p.atLineStart = true
		}
	}
}

// notify prints show_notification's message: a stream-json line, an
// entry of the json result, and in text mode a line on stderr, where the
// person sees it even when stdout goes to a file.
func (p *execPrinter) notify(ev engine.Event) {
	n, ok := ev.Payload.(eventdata.Notification)
	if !ok {
		return
	}
	switch p.mode {
	case "stream-json":
		printJSON(p.w, obj(ev, map[string]any{"type": "notification", "severity": n.Severity, "message": n.Message}))
	case "json":
		p.notifications = append(p.notifications, map[string]string{"severity": n.Severity, "message": n.Message})
	case "text":
		p.newline()
		line := p.tr("notification: %s", n.Message)
		switch n.Severity {
		case "warning":
			line = p.tr("notification (warning): %s", n.Message)
		case "error":
			line = p.tr("notification (error): %s", n.Message)
		}
		fmt.Fprintln(stderr, line)
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
		fmt.Fprintln(stderr, p.tr("error: %s", err))
	}
}

func (p *execPrinter) finish(st agent.Status) {
	u := p.usage
	u.Cost = p.cost
	if p.turnUsage != nil {
		u = p.turnUsage.Usage
	}
	status := string(st)
	if p.budget {
		status = "budget"
	}
	result := map[string]any{"type": "result", "status": status, "usage": usageJSON(u), "session_usage": usageJSON(p.session)}
	switch p.mode {
	case "stream-json":
		printJSON(p.w, result)
	case "json":
		result["text"] = p.text.String()
		if len(p.errors) > 0 {
			result["errors"] = p.errors
		}
		if len(p.notifications) > 0 {
			result["notifications"] = p.notifications
		}
		printJSON(p.w, result)
	case "text":
		p.newline()
		switch {
		case p.budget: // the error printed says which budget and how to go on
		case st == agent.StatusDone:
		case st == agent.StatusMaxTurns:
			fmt.Fprintln(stderr, p.tr("The run stopped at its tool-round limit."))
		case st == agent.StatusCancelled:
			fmt.Fprintln(stderr, p.tr("The run was cancelled."))
		default:
			fmt.Fprintln(stderr, p.tr("The run ended with an error."))
		}
	}
}

// usageJSON is the usage figures exec prints: tokens, the prompt's
// cached and uncached parts with the cache hit (null when the provider
// does not report its cache: unknown, not 0%), the cost (null without
// prices: tokens only) and, for one request, why its cache missed.
func usageJSON(u llm.Usage) map[string]any {
	m := map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "cached_tokens": u.CachedTokens,
		"reasoning_tokens": u.ReasoningTokens, "uncached_tokens": nil, "cache_hit": nil, "cost": nil}
	if unc, ok := u.Uncached(); ok {
		share, _ := u.CacheShare()
		m["uncached_tokens"], m["cache_hit"] = unc, math.Round(share*1e4)/1e4
	}
	if u.Priced {
		m["cost"] = u.Cost
	}
	if u.Miss.Cause != "" {
		m["cache_miss"] = u.Miss
	}
	return m
}

func firstNonEmptyText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// autoApprovedOf is the auto-approval a tool result's meta records (by
// and detail: a rule, the read-only setting, --approve all), or nil when
// a person decided or nothing ran. Headless has no card, so the
// stream-json line says why a command ran unasked.
// sandboxOf reads a shell result's sandbox fields from its meta.
func sandboxOf(meta any) (m struct {
	Sandbox string        `json:"sandbox"`
	Denial  *tools.Denial `json:"sandboxDenial"`
}) {
	if meta == nil {
		return m
	}
	if b, err := json.Marshal(meta); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func autoApprovedOf(meta any) *tools.AutoApproval {
	if meta == nil {
		return nil
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return nil
	}
	var m struct {
		AutoApproved *tools.AutoApproval `json:"autoApproved"`
	}
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m.AutoApproved
}
