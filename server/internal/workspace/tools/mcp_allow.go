package tools

import (
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// A custom command's allowedTools may name MCP tools the way Claude Code's
// permissions do: one tool (mcp__server__tool), or every tool of a server
// (mcp__server, mcp__server__*). When the MCP tools are offered through
// mcp_search_tools and mcp_call_tool (over the schema budget), those two
// stand in for the tools the list allows: the search shows only them and
// the call reaches only them. Naming mcp_call_tool or mcp_search_tools
// itself allows every MCP tool through them.

// MCPSearchName is the tool that searches the MCP tools.
const MCPSearchName = mcpSearchName

// MCPAllowed reports whether allowed (tool names; nil: no list, all
// allowed) lets a turn call the MCP tool name.
func MCPAllowed(allowed map[string]bool, name string) bool {
	if allowed == nil || allowed[name] || allowed[mcpCallName] || allowed[mcpSearchName] {
		return true
	}
	if !strings.HasPrefix(name, "mcp__") {
		return false
	}
	for a := range allowed {
		server := strings.TrimSuffix(a, "__*")
		if strings.HasPrefix(server, "mcp__") && !strings.Contains(strings.TrimPrefix(server, "mcp__"), "__") &&
			strings.HasPrefix(name, server+"__") {
			return true
		}
	}
	return false
}

// AllowsMCP reports whether allowed lets a turn use some MCP tool, and so
// the search tools that reach them.
func AllowsMCP(allowed map[string]bool) bool {
	if allowed == nil {
		return true
	}
	for n := range allowed {
		if strings.HasPrefix(n, "mcp__") || n == mcpCallName || n == mcpSearchName {
			return true
		}
	}
	return false
}

// MCPAllowedOnly is ts without the tools allowed does not allow.
func MCPAllowedOnly(ts []mcpclient.Tool, allowed map[string]bool) []mcpclient.Tool {
	if allowed == nil {
		return ts
	}
	var out []mcpclient.Tool
	for _, t := range ts {
		if MCPAllowed(allowed, t.Name) {
			out = append(out, t)
		}
	}
	return out
}
