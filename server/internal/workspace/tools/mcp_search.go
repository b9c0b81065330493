package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// When the MCP servers' tool definitions would take too much of the
// context window, the model is offered two tools instead of all of them:
// mcp_search_tools finds tools by the words of their names and
// descriptions and shows their input schemas, and mcp_call_tool calls one
// by name. A call goes through the same confirmation as a directly
// offered MCP tool.

// MCPCallName is the tool that calls an MCP tool by name.
const MCPCallName = mcpCallName

const (
	mcpSearchName = "mcp_search_tools"
	mcpCallName   = "mcp_call_tool"
	searchDefault = 8
	searchMax     = 20
)

type mcpSearchArgs struct {
	Query string `json:"query" jsonschema:"required" jsonschema_description:"Words to look for in MCP tool names and descriptions, e.g. 'github issue create'."`
	Limit int    `json:"limit,omitempty" jsonschema_description:"How many tools to return (default 8, at most 20)."`
}

type mcpCallArgs struct {
	Tool      string          `json:"tool" jsonschema:"required" jsonschema_description:"The tool's full name as mcp_search_tools shows it (mcp__<server>__<tool>)."`
	Arguments json.RawMessage `json:"arguments,omitempty" jsonschema_description:"The tool's arguments: a JSON object following its input schema."`
}

// MCPSearch returns the two tools that stand in for ts. wrap (may be nil)
// is applied to the tool a call runs, so the caller's PreToolUse and
// PostToolUse hooks see the MCP tool's own name, as they would if it had
// been offered directly.
func MCPSearch(ts []mcpclient.Tool, m MCPCaller, wrap func(Tool) Tool) []Tool {
	byName := make(map[string]mcpclient.Tool, len(ts))
	for _, t := range ts {
		byName[t.Name] = t
	}
	search := &define[mcpSearchArgs]{
		name: mcpSearchName, traits: Catalog,
		desc:     fmt.Sprintf("Finds tools of the connected MCP servers (%d tools; too many to list here) by words of their names and descriptions, and shows each match's input schema. Call a match with %s.", len(ts), mcpCallName),
		defaults: func() mcpSearchArgs { return mcpSearchArgs{Limit: searchDefault} },
		run: func(_ context.Context, env *Env, a mcpSearchArgs) (Result, error) {
			return searchMCP(env, ts, a), nil
		},
	}
	call := &define[mcpCallArgs]{
		name:     mcpCallName,
		traits:   WritesWorkspace | ReachesNetwork, // it may call any MCP tool
		desc:     "Calls an MCP tool found with " + mcpSearchName + ". The user confirms the call unless their allow rules cover the tool.",
		defaults: func() mcpCallArgs { return mcpCallArgs{} },
		run: func(ctx context.Context, env *Env, a mcpCallArgs) (Result, error) {
			t, ok := byName[strings.TrimSpace(a.Tool)]
			if !ok {
				return FailShown(fmt.Sprintf("no MCP tool named %q is available here (a custom command's allowedTools may leave it out); find the available ones with %s.", a.Tool, mcpSearchName),
					env.Tr("No MCP tool named %s is available here.", a.Tool)), nil
			}
			args := a.Arguments
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage(`{}`)
			}
			var obj map[string]any
			if json.Unmarshal(args, &obj) != nil {
				return FailShown("arguments must be a JSON object following the tool's input schema.", badArgsShown(env, a.Tool)), nil
			}
			tl := MCPTool(t, m)
			if wrap != nil {
				tl = wrap(tl)
			}
			return tl.Run(ctx, env, args)
		},
	}
	return []Tool{search, call}
}

func searchMCP(env *Env, ts []mcpclient.Tool, a mcpSearchArgs) Result {
	words := strings.Fields(strings.ToLower(a.Query))
	if len(words) == 0 {
		return FailShown("query must name what the tool should do.", env.Tr("%s: the query is empty.", mcpSearchName))
	}
	limit := a.Limit
	if limit <= 0 {
		limit = searchDefault
	}
	limit = min(limit, searchMax)
	type hit struct {
		t     mcpclient.Tool
		score int
	}
	var hits []hit
	for _, t := range ts {
		name, desc := strings.ToLower(t.Name), strings.ToLower(t.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(name, w) {
				score += 2
			} else if strings.Contains(desc, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{t, score})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].t.Name < hits[j].t.Name
	})
	if len(hits) == 0 {
		return Result{OK: true, Output: fmt.Sprintf("No MCP tool matches %q among %d tools; try other words.", a.Query, len(ts))}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d MCP tools match %q; call one with %s.\n", min(len(hits), limit), len(ts), a.Query, mcpCallName)
	for _, h := range hits[:min(len(hits), limit)] {
		fmt.Fprintf(&b, "\n## %s\n%s\nInput schema: %s\n", h.t.Name, strings.TrimSpace(h.t.Description), h.t.Schema)
	}
	return Result{OK: true, Output: b.String()}
}
