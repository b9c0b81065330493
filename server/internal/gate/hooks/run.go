package hooks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/workspace/shell"
)

// Run is what one hook command did, for the chat and the log.
type Run struct {
	Event      Event  `json:"event"`
	Command    string `json:"command"`
	Source     string `json:"source"`
	ExitCode   int    `json:"exitCode"`
	DurationMs int64  `json:"durationMs"`
	// Result is ok, blocked, failed or timeout.
	Result string `json:"result"`
	Note   string `json:"note,omitempty"`
	// Suppressed is set when the hook asked (suppressOutput) not to be
	// shown in the chat; it is still logged.
	Suppressed bool `json:"-"`
}

// Outcome combines the hooks of one event.
type Outcome struct {
	// Blocked: the event's action does not happen (the tool call, the
	// prompt; for Stop: the agent does not stop yet). For PostToolUse the
	// tool already ran: Reason goes to the model next to its result.
	Blocked bool
	// Reason is why, in the hook's words: the model reads it.
	Reason string
	// Stop is a hook's "continue": false: the turn ends after this event,
	// with StopReason shown to the user (not the model).
	Stop       bool
	StopReason string
	// Decision is a PreToolUse hook's allow or ask (tools.HookAllow,
	// tools.HookAsk), with its reason and the hook's command; a deny is
	// Blocked. Several hooks: ask beats allow.
	Decision, DecisionReason, DecisionSource string
	AdditionalContext                        string
	// UpdatedInput replaces the tool's arguments (PreToolUse only), in
	// GoVibe's argument names.
	UpdatedInput []byte
	Runs         []Run
}

// Runner runs hooks. Safe for concurrent use.
type Runner struct {
	Config *Config
	// Cwd is the workspace root hooks run in; Roots are all of them (tool
	// paths are shown absolute). Env is added to the scrubbed environment
	// (secrets never reach hook processes).
	Cwd   string
	Roots []string
	Env   []string
	Shell string
	// Prepare, when set, completes an event that has hooks to run (its
	// transcript, its permission mode) before the first runs.
	Prepare func(ctx context.Context, in *Input)
	// Budget is the CPU time one event's hooks may use in the sidecar,
	// besides their commands' run (0: watchdog.DefaultBudget).
	Budget time.Duration
	// now is the clock of Copilot's timestamps (time.Now when nil).
	now func() time.Time
}

const maxNote = 2000

// maxContext bounds what one event's hooks add to the model's context,
// as Claude Code caps hook output at 10,000 characters.
const maxContext = 10000

// Fire runs every hook configured for in's event (and tool), one after
// another so that a changed input reaches the next hook; a block or a
// "continue": false stops the rest. A hook that cannot start, fails or
// times out is reported and does not block.
func (r *Runner) Fire(ctx context.Context, in Input) Outcome {
	if r == nil || r.Config == nil {
		return Outcome{}
	}
	roots := r.roots()
	hs := r.hooksFor(in, roots)
	if len(hs) == 0 {
		return Outcome{}
	}
	// The in-process work (the transcript, encoding the event, reading
	// the replies) runs under a CPU budget, the hook commands under their
	// timeouts: neither can hold the turn (issue 31 §5).
	out, err := watchdog.Do(ctx, "the "+string(in.HookEventName)+" hook step", in.size(), r.Budget, func(ctx context.Context) (Outcome, error) {
		return r.fire(ctx, in, hs, roots), nil
	})
	var stopped *watchdog.Exceeded
	if errors.As(err, &stopped) {
		return Outcome{Runs: []Run{{Event: in.HookEventName, Result: "failed", Note: clip(stopped.Error(), maxNote)}}}
	}
	return out
}

func (r *Runner) fire(ctx context.Context, in Input, hs []Hook, roots []string) Outcome {
	var out Outcome
	if r.Prepare != nil {
		watchdog.Doing(ctx, "writing the transcript")
		r.Prepare(ctx, &in)
	}
	for _, h := range hs {
		watchdog.Doing(ctx, "encoding the event for "+clip(h.Command, 200))
		if out.UpdatedInput != nil {
			in.ToolInput = out.UpdatedInput
		}
		v := in.view(h.Format, roots)
		var stdin []byte
		var err error
		if h.Format == FormatCopilot {
			stdin, err = in.copilotStdin(v, r.clock())
		} else {
			stdin, err = in.claudeStdin(v)
		}
		run := Run{Event: h.Event, Command: h.Command, Source: h.Source}
		if err != nil {
			run.Result, run.Note = "failed", "the event could not be encoded: "+err.Error()
			out.Runs = append(out.Runs, run)
			continue
		}
		// The child's time is bounded by its timeout, not the CPU budget.
		resume := watchdog.Pause(ctx)
		res, err := shell.Run(ctx, shell.Spec{
			Command: h.Command, Cwd: r.dir(h), Timeout: h.Timeout, Shell: r.Shell, Stdin: stdin,
			Env: r.env(h, in),
		})
		resume()
		watchdog.Doing(ctx, "reading the reply of "+clip(h.Command, 200))
		run.ExitCode, run.DurationMs = res.ExitCode, res.DurationMs
		switch {
		case err != nil:
			run.Result, run.Note = "failed", err.Error()
		case res.Canceled:
			run.Result, run.Note = "failed", "cancelled"
		case res.TimedOut:
			run.Result, run.Note = "timeout", fmt.Sprintf("the %s hook timed out after %s (its timeout); the hook was stopped and did not block", h.Event, h.Timeout)
		default:
			r.settle(h, in, v, res, &out, &run)
		}
		out.Runs = append(out.Runs, run)
		if out.Blocked || out.Stop {
			break
		}
	}
	out.AdditionalContext = clip(out.AdditionalContext, maxContext)
	return out
}

// hooksFor is the event's hooks whose matcher matches, in load order;
// each format's hooks are matched against that format's tool names.
func (r *Runner) hooksFor(in Input, roots []string) []Hook {
	names := map[Format][]string{}
	var out []Hook
	for _, h := range r.Config.hooks {
		if h.Event != in.HookEventName {
			continue
		}
		ns, ok := names[h.Format]
		if !ok {
			ns = in.matchNames(h.Format, roots)
			names[h.Format] = ns
		}
		if h.match != nil && len(ns) > 0 && !anyMatch(h.match, ns) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// settle reads a finished hook's exit code and output into the outcome.
func (r *Runner) settle(h Hook, in Input, v view, res shell.Result, out *Outcome, run *Run) {
	stderr := strings.TrimSpace(res.Stderr)
	rp, parsed, perr := parseReply(res.Stdout)
	blocks := res.ExitCode == 2 ||
		// Copilot's hooks deny a tool call by failing.
		h.Format == FormatCopilot && h.Event == PreToolUse && res.ExitCode != 0
	switch {
	case blocks:
		reason := stderr
		if reason == "" && h.Format == FormatCopilot && !parsed {
			// Copilot's hooks often explain a denial on stdout.
			reason = strings.TrimSpace(res.Stdout)
		}
		if parsed {
			if why, ok := rp.blockReason(h.Event); ok && why != "" {
				reason = why
			}
		}
		if reason == "" {
			reason = "blocked by a hook (" + clip(h.Command, 200) + ")"
		}
		switch h.Event {
		case PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStop:
			run.Result = "blocked"
			out.Blocked, out.Reason = true, clip(reason, maxNote)
		default:
			// Events that cannot be blocked show stderr to the user only.
			run.Result, run.Note = "failed", clip(fmt.Sprintf("exit code %d: %s", res.ExitCode, stderr), maxNote)
		}
	case res.ExitCode != 0 && !parsed:
		run.Result, run.Note = "failed", clip(fmt.Sprintf("exit code %d: %s", res.ExitCode, stderr), maxNote)
		if perr != "" {
			run.Note = clip(run.Note+"; "+perr, maxNote)
		}
		return
	default:
		run.Result = "ok"
		if perr != "" {
			run.Result, run.Note = "failed", perr
			return
		}
		if !parsed {
			// Plain output adds context where Claude Code does so.
			if text := strings.TrimSpace(res.Stdout); text != "" && (h.Event == UserPromptSubmit || h.Event == SessionStart) {
				out.AdditionalContext = joinCtx(out.AdditionalContext, text)
			}
			return
		}
	}
	if parsed {
		r.apply(h, in, v, rp, out, run)
	}
}

func (r *Runner) roots() []string {
	if len(r.Roots) > 0 {
		return r.Roots
	}
	if r.Cwd != "" {
		return []string{r.Cwd}
	}
	return nil
}

func (r *Runner) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

// dir is where a hook runs: its cwd (relative to the workspace root) or
// the root.
func (r *Runner) dir(h Hook) string {
	d := strings.TrimSpace(h.Dir)
	if d == "" || d == "." {
		return r.Cwd
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(r.Cwd, d)
	}
	return d
}

// env is the hook's environment on top of the scrubbed one: the project
// folder under Claude Code's name and GoVibe's, the event, and the
// hook's own env.
func (r *Runner) env(h Hook, in Input) []string {
	e := []string{"GOVIBE_PROJECT_DIR=" + r.Cwd, "CLAUDE_PROJECT_DIR=" + r.Cwd, "GOVIBE_HOOK_EVENT=" + string(in.HookEventName)}
	e = append(e, r.Env...)
	for k, v := range h.Env {
		e = append(e, k+"="+v)
	}
	return e
}

func joinCtx(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
