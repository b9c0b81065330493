package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/agent/subagent"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// A capture is the first request one role in one mode sends: its system
// prompt, its tool definitions and its last user message, as the real
// engine assembles them with every prompt-affecting capability on (the
// promptbench workspace: trusted, skills, a custom command, a hook,
// memory, a small AGENTS.md). The scripted model drives each role to its
// first request.
type capture struct {
	Name   string
	System string
	Tools  []scripted.Tool
	User   string
}

// scenario is one session: its mode, what the user sends, and which
// requests it captures (by the name the classifier gives them).
type scenario struct {
	mode string
	text string
}

// The scenarios: each mode's main agent, and in Agent mode a one-item
// plan, which reaches the executor, the evaluator and the closing run.
var scenarios = []scenario{
	{mode: "agent", text: "hello"},
	{mode: "plan", text: "hello"},
	{mode: "phases", text: "hello"},
	{mode: "reconcile", text: "hello"},
	{mode: "agent", text: "plan it"},
	{mode: "agent", text: "review it"},
}

// reviewers are the reviewer kinds whose prompts the "review it" session
// reaches: an edit, a changing shell command, a plan (from "plan it").
var reviewers = []review.Kind{review.KindEdit, review.KindShell, review.KindPlan}

// reviewSteps are the main agent's calls in the "review it" session, one
// per reply: a write the edit reviewer sees, a command the shell reviewer
// sees, and the deferred investigator through the more_tools entry.
var reviewSteps = []scripted.ToolCall{
	{ID: "w1", Name: "write_file", Arguments: `{"filePath":"hello.txt","content":"hello\n"}`},
	{ID: "s1", Name: "run_shell_command", Arguments: `{"command":"touch made.txt"}`},
	{ID: "i1", Name: "more_tools", Arguments: `{"tool":"investigate","arguments":{"objective":"what does main.go do?"}}`},
}

const smallAgents = "Run `make test` before committing. Use gofmt.\nRun `make test` before committing. Use gofmt.\n" +
	"Run `make test` before committing. Use gofmt.\nRun `make test` before committing. Use gofmt.\n"

// reply answers every request: "plan it" proposes a one-item plan, the
// evaluator completes the item, everything else replies "ok".
func reply(r *scripted.RecordedRequest) scripted.Reply {
	if kind, _ := r.LatestInput(); kind == "tool" && !strings.HasSuffix(strings.TrimSpace(firstUser(r)), "review it") {
		return scripted.Reply{Text: "ok"}
	}
	first, last := firstUser(r), r.LastUserMessage()
	if reviewerOf(r) != "" {
		return scripted.Reply{Text: `{"approved": true, "problems": []}`}
	}
	if strings.HasSuffix(strings.TrimSpace(first), "review it") && !isInvestigator(r) {
		if n := assistantTurns(r); n < len(reviewSteps) {
			return scripted.Reply{ToolCalls: []scripted.ToolCall{reviewSteps[n]}}
		}
		return scripted.Reply{Text: "ok"}
	}
	switch {
	case strings.Contains(last, "You are the evaluator"):
		return scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "c1", Name: "complete_todo_item", Arguments: `{"index":1,"summary":"checked"}`}}}
	case strings.HasSuffix(strings.TrimSpace(first), "plan it") && len(r.Messages) == 2:
		return scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "p1", Name: "create_todo_list", Arguments: `{"goal":"say hello","items":["write hello.txt"]}`}}}
	}
	return scripted.Reply{Text: "ok"}
}

// firstUser is the text of a request's first user message.
func firstUser(r *scripted.RecordedRequest) string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// assistantTurns counts the request's assistant messages: how many
// replies the run has had.
func assistantTurns(r *scripted.RecordedRequest) int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

func system(r *scripted.RecordedRequest) string {
	if len(r.Messages) == 0 || r.Messages[0].Role != "system" {
		return ""
	}
	return r.Messages[0].Content
}

// reviewerOf is the reviewer kind whose instructions the request carries.
func reviewerOf(r *scripted.RecordedRequest) review.Kind {
	for _, k := range reviewers {
		if sp := review.SystemPrompt(k); sp != "" && strings.HasPrefix(system(r), strings.TrimSpace(sp)[:min(80, len(strings.TrimSpace(sp)))]) {
			return k
		}
	}
	return ""
}

func isInvestigator(r *scripted.RecordedRequest) bool {
	return strings.HasPrefix(system(r), subagent.InvestigatePrompt[:60])
}

// role names a request: a reviewer or the investigator by its
// instructions, a scheduler agent by the prompt in its last user message,
// else the main agent of the scenario's mode.
func role(r *scripted.RecordedRequest, mode string) string {
	if k := reviewerOf(r); k != "" {
		return "reviewer-" + string(k)
	}
	if isInvestigator(r) {
		return "investigator"
	}
	last := r.LastUserMessage()
	switch {
	case strings.Contains(last, "You are the executor"):
		return "executor"
	case strings.Contains(last, "You are the evaluator"):
		return "evaluator"
	case strings.Contains(last, "Every todo item has been handled"):
		return "main-final"
	}
	return "main-" + mode
}

// captureAll runs every scenario and returns the first request of each
// role, in the order they were first seen.
func captureAll() ([]capture, error) {
	model, err := scripted.New()
	if err != nil {
		return nil, err
	}
	defer model.Close()
	model.SetHandler(reply)
	tmp, err := os.MkdirTemp("", "promptcapture")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ws, home, state := filepath.Join(tmp, "ws"), filepath.Join(tmp, "home"), filepath.Join(tmp, "state")
	files := map[string]string{
		filepath.Join(ws, "AGENTS.md"):                                 smallAgents,
		filepath.Join(ws, "main.go"):                                   "package main\n",
		filepath.Join(ws, ".govibe", "memory", "README.md"):            "Memory levels.\n",
		filepath.Join(ws, ".govibe", "commands", "ship.md"):            "---\ndescription: Ship\n---\nShip $ARGUMENTS\n",
		filepath.Join(home, ".govibe", "commands", "git", "commit.md"): "Commit: $ARGUMENTS\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	settings := config.Values{"apiBaseUrl": model.URL(), "model": "capture-model",
		"editReview.enabled": true, "shellCommandReview.enabled": true, "todolistReview.enabled": true,
		"hooks": map[string]any{"PostToolUse": []any{map[string]any{"matcher": "", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}}}}
	eng, err := engine.New(engine.Options{Roots: []string{ws}, StateDir: state, Settings: settings, APIKeys: map[string]string{"": "sk-capture"},
		Headless: true, Approve: "all", Trusted: true, Home: home, HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}})
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	ctx := context.Background()
	var out []capture
	seen := map[string]bool{}
	for _, sc := range scenarios {
		s, err := eng.Sessions.Create(ctx, "capture "+sc.mode)
		if err != nil {
			return nil, err
		}
		if err := eng.Modes.Set(ctx, s.ID, sc.mode); err != nil {
			return nil, err
		}
		from := len(model.Requests())
		if _, _, err := eng.Send(ctx, engine.SendParams{SessionID: s.ID, Text: sc.text}); err != nil {
			return nil, err
		}
		eng.Wait(s.ID)
		reqs := model.Requests()
		for i := from; i < len(reqs); i++ {
			r := &reqs[i]
			name := role(r, sc.mode)
			if seen[name] || len(r.Messages) == 0 {
				continue
			}
			seen[name] = true
			out = append(out, capture{Name: name, System: clean(r.Messages[0].Content, tmp), Tools: cleanTools(r.Tools, tmp), User: clean(r.LastUserMessage(), tmp)})
		}
	}
	return out, nil
}

// dateLine is the session's date in the environment section.
var dateLine = regexp.MustCompile(`(?m)^- Date: \d{4}-\d{2}-\d{2}$`)

// clean makes a capture independent of the run: its temporary folder and
// today's date.
func clean(s, tmp string) string {
	return dateLine.ReplaceAllString(strings.ReplaceAll(s, tmp, "<tmp>"), "- Date: <date>")
}

func cleanTools(ts []scripted.Tool, tmp string) []scripted.Tool {
	out := make([]scripted.Tool, len(ts))
	for i, t := range ts {
		out[i] = scripted.Tool{Name: t.Name, Description: clean(t.Description, tmp), Parameters: json.RawMessage(clean(string(t.Parameters), tmp))}
	}
	return out
}

// render is a capture's golden file: readable Markdown, one section per
// part of the request.
func (c capture) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n## System prompt\n\n%s\n\n## Tools (%d)\n", c.Name, strings.TrimRight(c.System, "\n"), len(c.Tools))
	for _, t := range c.Tools {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\n    %s\n", t.Name, strings.TrimSpace(t.Description), compactJSON(t.Parameters))
	}
	fmt.Fprintf(&b, "\n## Last user message\n\n%s\n", strings.TrimRight(c.User, "\n"))
	return b.String()
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// tokens are the capture's estimated tokens: system, tools, user.
func (c capture) tokens() (system, tools, user int) {
	est := compact.Default()
	defs, _ := json.Marshal(c.Tools)
	return est.Text(c.System), est.Text(string(defs)), est.Text(c.User)
}
