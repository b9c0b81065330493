package evalsuite

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
)

// Task is one benchmark task.
type Task struct {
	Name        string
	Description string
	// Setup fills dir, an empty directory that becomes a git repository
	// with one commit after it returns.
	Setup func(env *Env, dir string) error
	// Prompt is what the user asks.
	Prompt func(env *Env) string
	// Dirty, when set, changes the committed workspace before the run:
	// someone else's uncommitted work, which the run must leave alone.
	Dirty func(dir string) error
	// Settings are extra govibe.* settings the run needs (a web host
	// allowed for the run).
	Settings func(env *Env) map[string]any
	// Mode is the working mode the run starts in ("" is Agent). In Plan
	// mode the runner approves a proposed plan as the user's "Run plan"
	// would, once the first turn ends.
	Mode string
	// Check judges the finished run; nil means pass, an error says why not.
	Check func(c *CheckInput) error
}

// Run is what an Agent is asked to do.
type Run struct {
	Task      string
	Workspace string
	Prompt    string
	Settings  map[string]any
	Mode      string
}

// ToolCall is one tool call of a run and how it ended.
type ToolCall struct {
	Name      string
	Arguments string
	OK        bool
	Output    string
	// Refused: GoVibe refused the call (a permission, a policy, a limit)
	// rather than the tool failing at its work.
	Refused bool
	// Round is the 1-based tool round the call was made in.
	Round int
	// Agent is who called it: "" or "free" for the main agent, a plan
	// item's "executor:N" or "evaluator:N".
	Agent string
}

// Usage is the token usage and cost of a run.
type Usage struct {
	PromptTokens     int64   `json:"prompt_tokens"`
	CachedTokens     int64   `json:"cached_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
}

func (u *Usage) add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CachedTokens += o.CachedTokens
	u.CompletionTokens += o.CompletionTokens
	u.Cost += o.Cost
}

// Transcript is what an Agent reports of a run.
type Transcript struct {
	Answer string // the final assistant text
	Calls  []ToolCall
	Rounds int
	Usage  Usage
	Status string // the agent's final status ("done", "max_turns", "error", ...)
}

// Agent runs one prompt in a workspace to its end.
type Agent func(ctx context.Context, run Run) (Transcript, error)

// CheckInput is what a checker sees.
type CheckInput struct {
	Env       *Env
	Workspace string
	Transcript
}

// Called reports whether the run called tool name at all.
func (c *CheckInput) Called(name string) bool {
	for _, tc := range c.Calls {
		if tc.Name == name {
			return true
		}
	}
	return false
}

// FirstEdit is the index in Calls of the first edit that succeeded, -1
// when none did.
func (c *CheckInput) FirstEdit() int {
	for i, tc := range c.Calls {
		if tc.OK && editTools[tc.Name] {
			return i
		}
	}
	return -1
}

// FirstOK is the index in Calls of the first call of tool name that
// succeeded, -1 when none did.
func (c *CheckInput) FirstOK(name string) int {
	for i, tc := range c.Calls {
		if tc.OK && tc.Name == name {
			return i
		}
	}
	return -1
}

// Result is one attempt at one task.
type Result struct {
	Task         string  `json:"task"`
	Attempt      int     `json:"attempt"`
	Pass         bool    `json:"pass"`
	Reason       string  `json:"reason,omitempty"`
	Status       string  `json:"status"`
	Rounds       int     `json:"tool_rounds"`
	ToolCalls    int     `json:"tool_calls"`
	EditFailures int     `json:"edit_failures"`
	Refusals     int     `json:"refusals"`
	Usage        Usage   `json:"usage"`
	WallSeconds  float64 `json:"wall_seconds"`
	// Workspace is where the attempt ran, when Options.Keep left it.
	Workspace string `json:"workspace,omitempty"`
}

// Totals sums a set of results.
type Totals struct {
	Runs         int     `json:"runs"`
	Passed       int     `json:"passed"`
	PassRate     float64 `json:"pass_rate"`
	Rounds       int     `json:"tool_rounds"`
	EditFailures int     `json:"edit_failures"`
	Refusals     int     `json:"refusals"`
	Usage        Usage   `json:"usage"`
	WallSeconds  float64 `json:"wall_seconds"`
}

// Report is the whole run, as --json prints it.
type Report struct {
	Model   string   `json:"model,omitempty"`
	Version string   `json:"version,omitempty"`
	Results []Result `json:"results"`
	Total   Totals   `json:"total"`
}

// editTools are the tools whose failure is an edit failure.
var editTools = map[string]bool{"edit": true, "write_file": true}

// Select returns the tasks named in names (all when names is empty), in
// the suite's order; an unknown name is an error naming the known ones.
func Select(all []Task, names []string) ([]Task, error) {
	if len(names) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		found := false
		for _, t := range all {
			found = found || t.Name == n
		}
		if !found {
			return nil, fmt.Errorf("unknown task %q (known: %s)", n, strings.Join(Names(all), ", "))
		}
		want[n] = true
	}
	var out []Task
	for _, t := range all {
		if want[t.Name] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no task named")
	}
	return out, nil
}

// Names lists the tasks' names.
func Names(tasks []Task) []string {
	var n []string
	for _, t := range tasks {
		n = append(n, t.Name)
	}
	return n
}

// Options of RunSuite.
type Options struct {
	Repeat int
	// Progress, when set, is called after each attempt.
	Progress func(Result)
	// Keep leaves the workspaces on disk (their paths in the progress).
	Keep bool
}

// RunSuite runs each task Repeat times, each attempt in a fresh workspace.
// An agent error fails that attempt and the suite goes on; only a
// cancelled ctx stops it early.
func RunSuite(ctx context.Context, env *Env, tasks []Task, agent Agent, opt Options) (Report, error) {
	if opt.Repeat < 1 {
		return Report{}, fmt.Errorf("repeat must be at least 1, got %d", opt.Repeat)
	}
	var rep Report
	for _, t := range tasks {
		for i := 1; i <= opt.Repeat; i++ {
			if err := ctx.Err(); err != nil {
				rep.Total = total(rep.Results)
				return rep, err
			}
			r := runOne(ctx, env, t, agent, i, opt.Keep)
			rep.Results = append(rep.Results, r)
			if opt.Progress != nil {
				opt.Progress(r)
			}
		}
	}
	rep.Total = total(rep.Results)
	return rep, nil
}

func runOne(ctx context.Context, env *Env, t Task, agent Agent, attempt int, keep bool) Result {
	res := Result{Task: t.Name, Attempt: attempt}
	ws, err := newWorkspace(env, t)
	if err != nil {
		res.Reason = "setup: " + err.Error()
		return res
	}
	if keep {
		res.Workspace = ws
	} else {
		defer os.RemoveAll(ws)
	}
	run := Run{Task: t.Name, Workspace: ws, Prompt: t.Prompt(env), Mode: t.Mode}
	if t.Settings != nil {
		run.Settings = t.Settings(env)
	}
	env.resetHits()
	start := time.Now()
	tr, err := agent(ctx, run)
	res.WallSeconds = time.Since(start).Seconds()
	res.Status = tr.Status
	res.Rounds = tr.Rounds
	res.ToolCalls = len(tr.Calls)
	res.Usage = tr.Usage
	for _, c := range tr.Calls {
		switch {
		case c.OK:
		case editTools[c.Name]:
			res.EditFailures++
		case c.Refused:
			res.Refusals++
		}
	}
	if err != nil {
		res.Reason = "run: " + err.Error()
		return res
	}
	if cerr := t.Check(&CheckInput{Env: env, Workspace: ws, Transcript: tr}); cerr != nil {
		res.Reason = cerr.Error()
		return res
	}
	res.Pass = true
	return res
}

func total(rs []Result) Totals {
	var t Totals
	for _, r := range rs {
		t.Runs++
		if r.Pass {
			t.Passed++
		}
		t.Rounds += r.Rounds
		t.EditFailures += r.EditFailures
		t.Refusals += r.Refusals
		t.Usage.add(r.Usage)
		t.WallSeconds += r.WallSeconds
	}
	if t.Runs > 0 {
		t.PassRate = float64(t.Passed) / float64(t.Runs)
	}
	return t
}
