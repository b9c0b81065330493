package hooks

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/govibe/govibe/server/internal/tools"
)

// hookedTool runs PreToolUse and PostToolUse hooks around a tool. A block
// becomes the tool's failure result with the hook's reason; an updated
// input replaces the arguments; context a hook adds is appended to the
// result the model reads. Name, description and schema are the tool's
// own, so the offered definitions do not change.
type hookedTool struct {
	tools.Tool
	m *Manager
}

func (h hookedTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	pre := h.m.Fire(ctx, env.TurnID, Input{SessionID: env.SessionID, HookEventName: PreToolUse, ToolName: h.Name(), ToolInput: raw})
	if pre.Blocked {
		return tools.FailShown("Blocked by a PreToolUse hook: "+pre.Reason, env.Tr("Not run: a PreToolUse hook blocked it: %s", pre.Reason)), nil
	}
	if len(pre.UpdatedInput) > 0 {
		raw = pre.UpdatedInput
	}
	res, err := h.Tool.Run(ctx, env, raw)
	if err != nil {
		return res, err
	}
	resp, _ := json.Marshal(map[string]any{"ok": res.OK, "output": res.Output})
	post := h.m.Fire(ctx, env.TurnID, Input{SessionID: env.SessionID, HookEventName: PostToolUse, ToolName: h.Name(), ToolInput: raw, ToolResponse: resp})
	var extra []string
	for _, s := range []string{pre.AdditionalContext, post.AdditionalContext} {
		if s = strings.TrimSpace(s); s != "" {
			extra = append(extra, s)
		}
	}
	if post.Blocked {
		extra = append(extra, "A PostToolUse hook objected: "+post.Reason)
	}
	if len(extra) > 0 {
		res.Output += "\n\n<hook_context>\n" + strings.Join(extra, "\n") + "\n</hook_context>"
	}
	return res, nil
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
