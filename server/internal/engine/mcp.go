package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// MCP servers are mcpclient.Servers (one manager per engine, loaded
// lazily under the current trust). The engine wires them: their tools
// are offered after the built-ins, sorted by name, so the tool list stays
// stable; their prompts are slash commands; their resources are
// @mcp: mentions. Every call is confirmed like a shell command unless a
// user allow rule covers it (approval.Approver.ConfirmTool).

// mcpTools lists the servers' tools (connecting them on first use). When
// their definitions are over the budget, two tools stand in for them:
// mcp_search_tools and mcp_call_tool (tools.MCPSearch), which reach only
// the tools allowed names (a custom command's allowedTools; nil: all).
func (e *Engine) mcpTools(ctx context.Context, allowed map[string]bool) []tools.Tool {
	m := e.MCP.Manager()
	ts := m.Tools(ctx)
	if e.MCP.OverSchemaBudget(m) {
		return tools.MCPSearch(tools.MCPAllowedOnly(ts, allowed), m, e.hooks.Wrap())
	}
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		out[i] = tools.MCPTool(t, m)
	}
	return out
}
