package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// bulkyMCPWorkspace runs mcpecho as server "e" with 30 extra tools, whose
// definitions are over the budget of a 32k window.
func bulkyMCPWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"e": map[string]any{
		"command": mcpEcho, "env": map[string]string{"MCPECHO_EXTRA_TOOLS": "30"}}}})
	if err := os.MkdirAll(filepath.Join(ws, ".govibe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".govibe", "mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestMCPOverBudgetOffersSearch: when the MCP tool definitions take more
// than 15% of the context window, the user is warned and the model gets
// mcp_search_tools and mcp_call_tool instead of every tool; a search
// shows the tool's schema, and a call through mcp_call_tool is confirmed
// on the usual MCP card and reaches the server.
func TestMCPOverBudgetOffersSearch(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ws := bulkyMCPWorkspace(t)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("q1", "mcp_search_tools", `{"query":"echo text"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("c1", "mcp_call_tool", `{"tool":"mcp__e__echo","arguments":{"text":"found you"}}`)}},
		scripted.Reply{Text: "done"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws,
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "contextWindow": 32000}})
	r := send(t, ed, "", "echo something")
	c := awaitConfirm(t, ed, 1)
	if c.Kind != "tool" || c.Server != "e" || c.Tool != "echo" || !strings.Contains(c.Question, "found you") {
		t.Fatalf("the call through mcp_call_tool asked %+v", c)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)

	reqs := model.Requests()
	var names []string
	for _, x := range reqs[0].Tools {
		names = append(names, x.Name)
	}
	offered := strings.Join(names, " ")
	if !strings.Contains(offered, "mcp_search_tools") || !strings.Contains(offered, "mcp_call_tool") || strings.Contains(offered, "mcp__e__") {
		t.Fatalf("over the budget the model was offered: %s", offered)
	}
	if got := toolResultFor(t, model, "q1"); !strings.Contains(got, "## mcp__e__echo") || !strings.Contains(got, `"text"`) {
		t.Fatalf("the search gave %q", got)
	}
	if got := toolResultFor(t, model, "c1"); !strings.Contains(got, "echo: found you") {
		t.Fatalf("the call gave %q", got)
	}
	ed.Await("the budget warning", 10*time.Second, func(e *fakeeditor.Editor) bool {
		for _, n := range e.Notifications("server/notice") {
			if strings.Contains(string(n.Params), "search tool") {
				return true
			}
		}
		return false
	})
}

// TestMCPCallToolRunsTheToolsHooks: a PreToolUse hook for an MCP tool
// blocks it when it is called through mcp_call_tool too (the hook sees
// the tool's own name), before anyone is asked.
func TestMCPCallToolRunsTheToolsHooks(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ws := bulkyMCPWorkspace(t)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("c1", "mcp_call_tool", `{"tool":"mcp__e__echo","arguments":{"text":"x"}}`)}},
		scripted.Reply{Text: "done"})
	hook := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "mcp__e__echo",
		"hooks": []any{map[string]any{"type": "command", "command": "echo 'no echo today' >&2; exit 2"}}}}}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws,
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "contextWindow": 32000, "hooks": hook}})
	r := send(t, ed, "", "echo")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if got := toolResultFor(t, model, "c1"); !strings.Contains(got, "no echo today") || confirms(ed) != 0 {
		t.Fatalf("the hook did not block the call through mcp_call_tool: %q (%d questions)", got, confirms(ed))
	}
}
