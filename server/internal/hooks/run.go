package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/shell"
)

// Input is the JSON a hook reads on stdin (Claude Code's field names).
type Input struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  Event           `json:"hook_event_name"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	Message        string          `json:"message,omitempty"`
	Trigger        string          `json:"trigger,omitempty"` // PreCompact: manual|auto
	Source         string          `json:"source,omitempty"`  // SessionStart: startup|resume|clear
	Reason         string          `json:"reason,omitempty"`  // SessionEnd
	AgentTag       string          `json:"agent,omitempty"`   // SubagentStop: executor:1, investigate...
	StopHookActive bool            `json:"stop_hook_active,omitempty"`
}

// reply is the JSON a hook may print on stdout after exiting 0.
type reply struct {
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	SystemMessage string `json:"systemMessage"`
	HookSpecific  *struct {
		AdditionalContext        string          `json:"additionalContext"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

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
}

// Outcome combines the hooks of one event.
type Outcome struct {
	Blocked bool
	// Reason is why, in the hook's words: the model reads it.
	Reason            string
	AdditionalContext string
	// UpdatedInput replaces the tool's arguments (PreToolUse only).
	UpdatedInput json.RawMessage
	Runs         []Run
}

// Runner runs hooks. Safe for concurrent use.
type Runner struct {
	Config *Config
	// Cwd is the workspace root hooks run in; Env is added to the scrubbed
	// environment (secrets never reach hook processes).
	Cwd   string
	Env   []string
	Shell string
}

const maxNote = 2000

// Fire runs every hook configured for ev (and tool), one after another so
// that a changed input reaches the next hook; the first block stops the
// rest. A hook that cannot start, fails or times out is reported and does
// not block.
func (r *Runner) Fire(ctx context.Context, in Input) Outcome {
	var out Outcome
	if r == nil {
		return out
	}
	for _, h := range r.Config.For(in.HookEventName, in.ToolName) {
		if out.UpdatedInput != nil {
			in.ToolInput = out.UpdatedInput
		}
		stdin, _ := json.Marshal(in)
		res, err := shell.Run(ctx, shell.Spec{
			Command: h.Command, Cwd: r.Cwd, Timeout: h.Timeout, Shell: r.Shell, Stdin: stdin,
			Env: append([]string{"GOVIBE_PROJECT_DIR=" + r.Cwd, "CLAUDE_PROJECT_DIR=" + r.Cwd, "GOVIBE_HOOK_EVENT=" + string(in.HookEventName)}, r.Env...),
		})
		run := Run{Event: h.Event, Command: h.Command, Source: h.Source, ExitCode: res.ExitCode, DurationMs: res.DurationMs}
		switch {
		case err != nil:
			run.Result, run.Note = "failed", err.Error()
		case res.Canceled:
			run.Result, run.Note = "failed", "cancelled"
		case res.TimedOut:
			run.Result, run.Note = "timeout", fmt.Sprintf("timed out after %s; the hook was stopped and did not block", h.Timeout)
		case res.ExitCode == 2:
			run.Result = "blocked"
			out.Blocked = true
			out.Reason = clip(strings.TrimSpace(res.Stderr), maxNote)
			if out.Reason == "" {
				out.Reason = "blocked by a hook (" + clip(h.Command, 200) + ")"
			}
		case res.ExitCode != 0:
			run.Result, run.Note = "failed", clip(fmt.Sprintf("exit code %d: %s", res.ExitCode, strings.TrimSpace(res.Stderr)), maxNote)
		default:
			run.Result = "ok"
			r.applyReply(in.HookEventName, res.Stdout, &out, &run)
		}
		out.Runs = append(out.Runs, run)
		if out.Blocked {
			break
		}
	}
	return out
}

func (r *Runner) applyReply(ev Event, stdout string, out *Outcome, run *Run) {
	text := strings.TrimSpace(stdout)
	if text == "" {
		return
	}
	if !strings.HasPrefix(text, "{") {
		// Plain output adds context where Claude Code does so.
		if ev == UserPromptSubmit || ev == SessionStart {
			out.AdditionalContext = joinCtx(out.AdditionalContext, clip(text, 8000))
		}
		return
	}
	var rp reply
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	if err := dec.Decode(&rp); err != nil {
		run.Result, run.Note = "failed", "the hook printed malformed JSON, which was ignored: "+err.Error()
		return
	}
	if rp.SystemMessage != "" {
		run.Note = clip(rp.SystemMessage, maxNote)
	}
	block := func(reason string) {
		run.Result = "blocked"
		out.Blocked = true
		out.Reason = clip(firstNonEmpty(reason, "blocked by a hook"), maxNote)
	}
	if rp.Continue != nil && !*rp.Continue {
		block(rp.StopReason)
		return
	}
	if rp.Decision == "block" || rp.Decision == "deny" {
		block(rp.Reason)
		return
	}
	if hs := rp.HookSpecific; hs != nil {
		if hs.PermissionDecision == "deny" {
			block(hs.PermissionDecisionReason)
			return
		}
		if hs.AdditionalContext != "" {
			out.AdditionalContext = joinCtx(out.AdditionalContext, clip(hs.AdditionalContext, 8000))
		}
		if len(hs.UpdatedInput) > 0 && ev == PreToolUse {
			var obj map[string]any
			if json.Unmarshal(hs.UpdatedInput, &obj) != nil {
				run.Result, run.Note = "failed", "updatedInput must be a JSON object; it was ignored"
				return
			}
			out.UpdatedInput = hs.UpdatedInput
		}
	}
}

func joinCtx(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func firstNonEmpty(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
