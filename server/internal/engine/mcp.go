package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/commands"
	"github.com/govibe/govibe/server/internal/mcpclient"
	"github.com/govibe/govibe/server/internal/shell"
	"github.com/govibe/govibe/server/internal/tools"
)

// MCP servers: one manager per engine, from ~/.govibe/mcp.json and the
// project's .govibe/mcp.json, .vscode/mcp.json and .mcp.json (project
// files only in a trusted workspace). Servers start lazily (the first run
// that lists tools) and in parallel; their tools are offered after the
// built-ins, sorted by name, so the tool list stays stable. Every call is
// confirmed like a shell command unless a user allow rule covers it.

// mcpState is the engine's MCP manager and what was reported about it.
type mcpState struct {
	mu      sync.Mutex
	m       *mcpclient.Manager
	warned  bool // the schema budget warning was shown for this manager
	skipped []string
	// inputs are the editor's values for ${input:id} (from SecretStorage):
	// in memory only, substituted into the one server config that names
	// them, never into the environment of anything else.
	inputs map[string]string
}

// mcpManager returns the manager, building it on first use.
func (e *Engine) mcpManager() *mcpclient.Manager {
	e.mcp.mu.Lock()
	defer e.mcp.mu.Unlock()
	if e.mcp.m != nil {
		return e.mcp.m
	}
	inputs := e.mcp.inputs
	cfgs, problems, skipped := mcpclient.Load(mcpclient.Sources(e.home(), e.opts.Roots), e.Trusted(), func(id string) (string, bool) {
		v, ok := inputs[id]
		return v, ok
	})
	for _, p := range problems {
		e.log.Warn("MCP configuration", zap.String("source", p.Source), zap.String("problem", p.Message))
		e.notice("warning", e.tr("MCP server not loaded: %s", p.Error()))
	}
	e.mcp.skipped = skipped
	e.mcp.m = mcpclient.New(cfgs, mcpclient.Options{Log: e.log.Named("mcp"), Env: shell.ScrubEnv(os.Environ()), Cwd: e.opts.Roots[0]})
	e.mcp.warned = false
	return e.mcp.m
}

// resetMCP stops the servers; the next use loads the configuration again.
func (e *Engine) resetMCP() {
	e.mcp.mu.Lock()
	m := e.mcp.m
	e.mcp.m = nil
	e.mcp.mu.Unlock()
	if m != nil {
		go m.Close()
	}
}

// SetMCPInputs adds values for ${input:id} and reloads the servers, so
// those that waited for them start with them.
func (e *Engine) SetMCPInputs(values map[string]string) {
	e.mcp.mu.Lock()
	next := map[string]string{}
	for k, v := range e.mcp.inputs {
		next[k] = v
	}
	for k, v := range values {
		next[k] = v
	}
	e.mcp.inputs = next
	e.mcp.mu.Unlock()
	e.resetMCP()
}

// MCP is the manager for the status view and its actions.
func (e *Engine) MCP() *mcpclient.Manager { return e.mcpManager() }

// mcpTools lists the servers' tools (connecting them on first use). When
// their definitions are over the budget, two tools stand in for them:
// mcp_search_tools and mcp_call_tool (tools.MCPSearch), which reach only
// the tools allowed names (a custom command's allowedTools; nil: all).
func (e *Engine) mcpTools(ctx context.Context, allowed map[string]bool) []tools.Tool {
	m := e.mcpManager()
	ts := m.Tools(ctx)
	if e.overSchemaBudget(m) {
		return tools.MCPSearch(tools.MCPAllowedOnly(ts, allowed), m, e.hooks.Wrap())
	}
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		out[i] = tools.MCPTool(t, m)
	}
	return out
}

// overSchemaBudget reports whether the MCP tool schemas take more than
// 15% of the model's context window, and warns the user once per manager.
func (e *Engine) overSchemaBudget(m *mcpclient.Manager) bool {
	chars := 0
	var per []string
	for _, s := range m.Statuses() {
		chars += s.SchemaChars
		if s.SchemaChars > 0 {
			per = append(per, fmt.Sprintf("%s ≈%d", s.Name, s.SchemaChars/4))
		}
	}
	window := e.profile().ContextWindow
	if window <= 0 || chars/4*100 <= window*15 {
		return false
	}
	e.mcp.mu.Lock()
	warned := e.mcp.warned
	e.mcp.warned = true
	e.mcp.mu.Unlock()
	if !warned {
		e.notice("warning", e.tr("MCP tool definitions take about %d tokens, more than 15%% of the %d-token context window (%s), so the model finds them with a search tool instead of seeing them all. Disable servers you do not need.", chars/4, window, strings.Join(per, ", ")))
	}
	return true
}

// mcpResource reads an @mcp:server:uri mention.
func (e *Engine) mcpResource(ctx context.Context, server, uri string) (string, error) {
	return e.mcpManager().ReadResource(ctx, server, uri)
}

// mcpPromptCommands are the connected servers' prompts as slash commands.
func (e *Engine) mcpPromptCommands() *commands.Registry[slashHandler] {
	r := commands.New[slashHandler]()
	m := e.mcpManager()
	for _, p := range m.Prompts() {
		p := p
		hint := ""
		if len(p.Arguments) > 0 {
			hint = strings.Join(p.Arguments, " ")
		} else {
			hint = "[arguments]"
		}
		_ = r.Register(commands.Command[slashHandler]{Name: p.Command, Description: p.Description, ArgumentHint: hint,
			Handler: func(ctx context.Context, _ SendParams, args string) (commandOutcome, error) {
				text, err := m.GetPrompt(ctx, p.Server, p.Name, promptArgs(p.Arguments, args))
				if err != nil {
					return commandOutcome{}, err
				}
				return commandOutcome{text: text}, nil
			}})
	}
	return r
}

// promptArgs reads name=value pairs, and plain values in the order the
// prompt declares its arguments.
func promptArgs(declared []string, args string) map[string]string {
	out := map[string]string{}
	i := 0
	for _, f := range strings.Fields(args) {
		if k, v, ok := strings.Cut(f, "="); ok && k != "" {
			out[k] = v
			continue
		}
		for i < len(declared) && out[strings.TrimSuffix(declared[i], "*")] != "" {
			i++
		}
		if i < len(declared) {
			out[strings.TrimSuffix(declared[i], "*")] = f
			i++
		}
	}
	return out
}

// MCPSkipped lists the project MCP config files trust kept from loading,
// relative to their workspace root.
func (e *Engine) MCPSkipped() []string {
	e.mcpManager()
	e.mcp.mu.Lock()
	defer e.mcp.mu.Unlock()
	out := make([]string, len(e.mcp.skipped))
	for i, p := range e.mcp.skipped {
		out[i] = e.displayPath(p) // relative to its root, as the notice says it
	}
	return out
}
