package hooks

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// reply is the JSON a hook may print on stdout, as Claude Code documents
// it, with Copilot's top-level permissionDecision and modifiedArgs read
// as their Claude Code counterparts.
type reply struct {
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SuppressOutput bool   `json:"suppressOutput"`
	SystemMessage  string `json:"systemMessage"`
	Decision       string `json:"decision"`
	Reason         string `json:"reason"`
	// Copilot's preToolUse reply.
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs"`
	AdditionalContext        string          `json:"additionalContext"`
	HookSpecific             *struct {
		AdditionalContext        string          `json:"additionalContext"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// parseReply reads stdout as Claude Code does: JSON when it starts with
// '{', plain text otherwise. problem is set for output that starts like
// JSON but is not.
func parseReply(stdout string) (rp reply, parsed bool, problem string) {
	text := strings.TrimSpace(stdout)
	if !strings.HasPrefix(text, "{") {
		return rp, false, ""
	}
	if err := json.NewDecoder(bytes.NewReader([]byte(text))).Decode(&rp); err != nil {
		return rp, false, "the hook printed malformed JSON, which was ignored: " + err.Error()
	}
	return rp, true, ""
}

// permission is the PreToolUse decision, in either place, with the
// deprecated approve/block read as allow/deny.
func (rp reply) permission() (decision, reason string) {
	decision, reason = rp.PermissionDecision, rp.PermissionDecisionReason
	if hs := rp.HookSpecific; hs != nil && hs.PermissionDecision != "" {
		decision, reason = hs.PermissionDecision, hs.PermissionDecisionReason
	}
	if decision == "" {
		switch rp.Decision {
		case "approve":
			decision, reason = tools.HookAllow, rp.Reason
		case "block", "deny":
			decision, reason = "deny", rp.Reason
		}
	}
	return decision, reason
}

// blockReason is the reason of a reply that blocks the event.
func (rp reply) blockReason(ev Event) (string, bool) {
	if ev == PreToolUse {
		if d, why := rp.permission(); d == "deny" {
			return why, true
		}
		return "", false
	}
	if rp.Decision == "block" || rp.Decision == "deny" {
		return rp.Reason, true
	}
	return "", false
}

// apply folds a parsed reply into the outcome.
func (r *Runner) apply(h Hook, in Input, v view, rp reply, out *Outcome, run *Run) {
	if rp.SystemMessage != "" {
		run.Note = clip(rp.SystemMessage, maxNote)
	}
	run.Suppressed = rp.SuppressOutput
	block := func(reason string) {
		run.Result = "blocked"
		out.Blocked = true
		out.Reason = clip(firstNonEmpty(reason, "blocked by a hook"), maxNote)
	}
	if rp.Continue != nil && !*rp.Continue {
		// Stop everything: it beats the event's own decision.
		out.Stop, out.StopReason = true, clip(firstNonEmpty(rp.StopReason, "a hook stopped the turn"), maxNote)
		run.Result = "blocked"
		switch h.Event {
		case PreToolUse, UserPromptSubmit:
			block(out.StopReason)
		case Stop, SubagentStop:
			out.Blocked, out.Reason = false, ""
		}
		return
	}
	if why, ok := rp.blockReason(h.Event); ok && !out.Blocked {
		block(why)
		return
	}
	ctxText := rp.AdditionalContext
	if hs := rp.HookSpecific; hs != nil && hs.AdditionalContext != "" {
		ctxText = hs.AdditionalContext
	}
	if ctxText != "" {
		out.AdditionalContext = joinCtx(out.AdditionalContext, ctxText)
	}
	if h.Event != PreToolUse {
		return
	}
	switch d, why := rp.permission(); d {
	case tools.HookAsk:
		out.Decision, out.DecisionReason, out.DecisionSource = d, why, h.Command
	case tools.HookAllow:
		if out.Decision != tools.HookAsk {
			out.Decision, out.DecisionReason, out.DecisionSource = d, why, h.Command
		}
	}
	updated := rp.ModifiedArgs
	if hs := rp.HookSpecific; hs != nil && len(hs.UpdatedInput) > 0 {
		updated = hs.UpdatedInput
	}
	if len(updated) == 0 || string(updated) == "null" {
		return
	}
	var obj map[string]any
	if json.Unmarshal(updated, &obj) != nil || obj == nil {
		run.Result, run.Note = "failed", "updatedInput must be a JSON object; it was ignored"
		return
	}
	args, err := fromView(in.ToolName, in.ToolInput, obj, v)
	if err != nil {
		run.Result, run.Note = "failed", err.Error()+"; it was ignored"
		return
	}
	out.UpdatedInput = args
}
