package hooks

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// hookedTool runs PreToolUse and PostToolUse (or PostToolUseFailure)
// hooks around a tool. A block becomes the tool's failure result with the
// hook's reason; an updated input replaces the arguments; an allow or ask
// goes to the tool's approver with the call (tools.WithHookDecision);
// context a hook adds is appended to the result the model reads. Name,
// description and schema are the tool's own, so the offered definitions
// do not change.
type hookedTool struct {
	tools.Tool
	m *Manager
}

// confirmsItself says whether t's runs already go through the approver,
// which applies a hook's ask; any other tool a hook asks about is
// confirmed through the generic tool question first. From its traits:
// a tool that runs commands, writes the workspace, reaches the network
// or drives a browser asks before it acts, and so does every MCP tool
// (even one its server marks read-only). A sub-agent's tool does not (its
// agent's own calls are confirmed one by one), except one that drives a
// browser, whose start is confirmed (tools.ConfirmedBrowser).
func confirmsItself(t tools.Tool) bool {
	tr := t.Traits()
	acts := tr.Has(tools.RunsCommands | tools.WritesWorkspace | tools.ReachesNetwork | tools.DrivesBrowser)
	if acts && (!tr.Has(tools.StartsSubAgent) || tr.Has(tools.DrivesBrowser)) {
		return true
	}
	return strings.HasPrefix(t.Name(), "mcp__")
}

func (h hookedTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	callID := tools.CallID(ctx)
	pre := h.m.Fire(ctx, env.TurnID, Input{SessionID: env.SessionID, HookEventName: PreToolUse, ToolName: h.Name(), ToolInput: raw, ToolUseID: callID})
	h.m.stopTurn(env.TurnID, pre)
	if pre.Blocked {
		return tools.BlockedByHook("Blocked by a PreToolUse hook: "+pre.Reason, env.Tr("Not run: a PreToolUse hook blocked it: %s", pre.Reason)), nil
	}
	if len(pre.UpdatedInput) > 0 {
		raw = pre.UpdatedInput
	}
	if pre.Decision != "" {
		ctx = tools.WithHookDecision(ctx, tools.HookDecision{Decision: pre.Decision, Reason: pre.DecisionReason, Source: pre.DecisionSource})
		if pre.Decision == tools.HookAsk && !confirmsItself(h.Tool) {
			if res, ok, err := h.confirm(ctx, env, raw, callID); err != nil || !ok {
				return res, err
			}
		}
	}
	res, err := h.Tool.Run(ctx, env, raw)
	if err != nil {
		return res, err
	}
	in := Input{SessionID: env.SessionID, HookEventName: PostToolUse, ToolName: h.Name(), ToolInput: raw, ToolUseID: callID}
	if res.OK {
		in.ToolResponse, _ = json.Marshal(map[string]any{"ok": res.OK, "output": res.Output})
	} else {
		in.HookEventName, in.Error = PostToolUseFailure, res.Output
	}
	post := h.m.Fire(ctx, env.TurnID, in)
	h.m.stopTurn(env.TurnID, post)
	var extra []string
	for _, s := range []string{pre.AdditionalContext, post.AdditionalContext} {
		if s = strings.TrimSpace(s); s != "" {
			extra = append(extra, s)
		}
	}
	if post.Blocked {
		extra = append(extra, "A "+string(in.HookEventName)+" hook objected: "+post.Reason)
	}
	if len(extra) > 0 {
		res.Output += "\n\n<hook_context>\n" + strings.Join(extra, "\n") + "\n</hook_context>"
	}
	return res, nil
}

// confirm asks the person about a call a hook wants confirmed, for a tool
// that never asks by itself; ok is false when it must not run (res is
// then its result).
func (h hookedTool) confirm(ctx context.Context, env *tools.Env, raw json.RawMessage, callID string) (tools.Result, bool, error) {
	ta, can := env.Approver.(tools.ToolApprover)
	if !can || env.Approver == nil {
		return tools.FailShown("Not run: a PreToolUse hook asks for the user's confirmation, which is not available here.",
			env.Tr("Not run: a PreToolUse hook asks for confirmation and no one is available to give it.")), false, nil
	}
	d, err := ta.ConfirmTool(ctx, tools.ToolProposal{Tool: h.Name(), Arguments: raw, ToolCallID: callID})
	if err != nil {
		return tools.Result{}, false, err
	}
	if !d.Allowed {
		msg := "Not run: the user declined it when a PreToolUse hook asked."
		if d.Reason != "" {
			msg = "Not run: " + d.Reason
		}
		return tools.Result{OK: false, Output: msg, Display: env.Tr("Not run: you declined it when a PreToolUse hook asked."),
			Meta: tools.Declined{Declined: true, Reason: d.Reason}}, false, nil
	}
	return tools.Result{}, true, nil
}

// WithHooks wraps every tool when any hook is configured. mcp_call_tool
// is left bare: the MCP tool it runs is wrapped instead (Wrap), so hooks
// see that tool's own name, once.
func (m *Manager) WithHooks(ts []tools.Tool) []tools.Tool {
	wrap := m.Wrap()
	if wrap == nil {
		return ts
	}
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		if t.Name() == tools.MCPCallName {
			out[i] = t
			continue
		}
		out[i] = wrap(t)
	}
	return out
}

// Wrap wraps one tool in the hooks, or is nil when none is configured.
func (m *Manager) Wrap() func(tools.Tool) tools.Tool {
	if !m.Configured() {
		return nil
	}
	return func(t tools.Tool) tools.Tool { return hookedTool{Tool: t, m: m} }
}
