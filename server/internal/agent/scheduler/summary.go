package scheduler

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Command is one shell command an agent ran.
type Command struct {
	Command  string
	ExitCode int
	// Ran is false when the command was refused or never started.
	Ran bool
}

// Activity collects what an agent did, from its tool calls and their
// structured results (never from the model's prose). Safe for concurrent
// use: parallel read-only tools may report at once.
type Activity struct {
	// writes says whether a tool changes files (from its traits; this
	// package knows no tool but the shell).
	writes   func(tool string) bool
	mu       sync.Mutex
	calls    int
	files    map[string]bool
	commands []Command
}

// NewActivity collects an agent's activity; writes says which tools
// change files, whose paths the summary lists.
func NewActivity(writes func(tool string) bool) *Activity { return &Activity{writes: writes} }

// Record notes one finished tool call. meta is the result's structured
// metadata (tools.EditMeta, shell.Result) marshalled to JSON, if any.
func (a *Activity) Record(name, args string, ok bool, meta []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	switch {
	case ok && a.writes != nil && a.writes(name):
		// A write's path comes from the arguments the tool accepted, or
		// from the result's metadata when it carries one.
		var m struct {
			Path string `json:"path"`
		}
		p := ""
		if json.Unmarshal(meta, &m) == nil && m.Path != "" {
			p = m.Path
		} else {
			p = argPath(args)
		}
		if p != "" {
			if a.files == nil {
				a.files = map[string]bool{}
			}
			a.files[p] = true
		}
	case name == ToolShell:
		var r struct {
			Command  string `json:"command"`
			ExitCode int    `json:"exitCode"`
		}
		c := Command{Command: argString(args, "command")}
		if len(meta) > 0 && json.Unmarshal(meta, &r) == nil {
			c.Ran, c.ExitCode = true, r.ExitCode
			if r.Command != "" {
				c.Command = r.Command
			}
		}
		a.commands = append(a.commands, c)
	}
}

func argPath(args string) string {
	for _, k := range []string{"filePath", "path", "dirPath"} {
		if v := argString(args, k); v != "" {
			return v
		}
	}
	return ""
}

func argString(args, key string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

// Calls is the number of tool calls recorded.
func (a *Activity) Calls() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}

// Files lists changed paths, sorted.
func (a *Activity) Files() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.files))
	for f := range a.files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Commands lists shell commands in the order they finished.
func (a *Activity) Commands() []Command {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Command(nil), a.commands...)
}

// ExecutorSummary is the one message that replaces an executor's messages
// in the model track: its final reply, the files it changed, the commands
// it ran with their exit codes, and its tool-call count. ended says how it
// stopped when that was not a normal reply ("" otherwise).
func ExecutorSummary(p *Plan, index int, final string, act *Activity, ended string) llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s finished item %s, attempt %d]\n", Tag(RoleExecutor, index), p.Describe(index), p.Items[index].Attempts)
	if ended != "" {
		fmt.Fprintf(&b, "Ended early: %s\n", ended)
	}
	final = strings.TrimSpace(final)
	if final == "" {
		final = "(no final reply)"
	}
	fmt.Fprintf(&b, "Final reply:\n%s\n", final)
	files := act.Files()
	if len(files) == 0 {
		b.WriteString("Files changed: none\n")
	} else {
		fmt.Fprintf(&b, "Files changed: %s\n", strings.Join(files, ", "))
	}
	cmds := act.Commands()
	if len(cmds) == 0 {
		b.WriteString("Commands run: none\n")
	} else {
		b.WriteString("Commands run:\n")
		for _, c := range cmds {
			if c.Ran {
				fmt.Fprintf(&b, "- %s (exit %d)\n", c.Command, c.ExitCode)
			} else {
				fmt.Fprintf(&b, "- %s (not run)\n", c.Command)
			}
		}
	}
	fmt.Fprintf(&b, "Tool calls: %d", act.Calls())
	return llm.Message{Role: llm.RoleUser, Content: b.String()}
}

// EvaluatorSummary replaces an evaluator's messages: its verdict and any
// change it made to the plan.
func EvaluatorSummary(p *Plan, index int, title string, v Verdict, ended string) llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s evaluated item %d %q]\n", Tag(RoleEvaluator, index), index+1, title)
	if ended != "" {
		fmt.Fprintf(&b, "Ended early: %s\n", ended)
	}
	switch v.Outcome {
	case "done":
		b.WriteString("Verdict: done")
		if s := strings.TrimSpace(v.Findings); s != "" {
			b.WriteString(" — " + s)
		}
	case "retry":
		b.WriteString("Verdict: not done, sent back to the executor. Findings: " + v.Findings)
	case "failed":
		b.WriteString("Verdict: not done and out of attempts; the item failed. Findings: " + v.Findings)
	case "replanned":
		b.WriteString("Verdict: the item was replaced by a plan change")
	}
	b.WriteString("\n")
	if len(v.Changes) == 0 {
		b.WriteString("Plan: unchanged")
	} else {
		b.WriteString("Plan changed: " + strings.Join(v.Changes, "; "))
	}
	return llm.Message{Role: llm.RoleUser, Content: b.String()}
}
