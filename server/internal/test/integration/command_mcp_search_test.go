package integration

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestCommandAllowedToolsThroughMCPSearch: over the schema budget the MCP
// tools are offered through mcp_search_tools and mcp_call_tool. A custom
// command allowing mcp__e__echo still reaches it that way (the search
// shows only the tools it allows, the call is confirmed as usual), and
// mcp_call_tool refuses the server's other tools. A command that allows no
// MCP tool gets neither search tool, and calling mcp_call_tool anyway is
// refused before anyone is asked.
func TestCommandAllowedToolsThroughMCPSearch(t *testing.T) {
	t.Run("allowed", func(t *testing.T) {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		ws := bulkyMCPWorkspace(t)
		writeTree(t, ws, map[string]string{".govibe/commands/echo.md": "---\nallowedTools: [read_file, mcp__e__echo]\n---\nEcho $ARGUMENTS\n"})
		model := scripted.Start(t,
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("s1", "mcp_search_tools", `{"query":"echo add extra text numbers","limit":20}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("c1", "mcp_call_tool", `{"tool":"mcp__e__echo","arguments":{"text":"hi"}}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("c2", "mcp_call_tool", `{"tool":"mcp__e__add","arguments":{"a":1,"b":2}}`)}},
			scripted.Reply{Text: "done"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws,
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "contextWindow": 32000}})
		r := send(t, ed, "", "/echo hi")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "tool" || c.Server != "e" || c.Tool != "echo" {
			t.Fatalf("asked %+v", c)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
		if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
		}
		offered := toolNames(model.Requests()[0])
		if !slices.Contains(offered, "mcp_search_tools") || !slices.Contains(offered, "mcp_call_tool") || slices.Contains(offered, "list_files") {
			t.Fatalf("the command's turn was offered %v", offered)
		}
		if got := toolResultFor(t, model, "s1"); !strings.Contains(got, "## mcp__e__echo") || strings.Contains(got, "mcp__e__add") || strings.Contains(got, "extra_") {
			t.Fatalf("the search must show only the allowed tool: %q", got)
		}
		if got := toolResultFor(t, model, "c1"); !strings.Contains(got, "echo: hi") {
			t.Fatalf("the allowed call gave %q", got)
		}
		if got := toolResultFor(t, model, "c2"); !strings.Contains(got, `no MCP tool named "mcp__e__add" is available here`) {
			t.Fatalf("a tool the command does not allow ran through mcp_call_tool: %q", got)
		}
		if n := confirms(ed); n != 1 {
			t.Fatalf("%d questions; only the allowed call is asked", n)
		}
		expectValid(t, model)
	})
	t.Run("not-allowed", func(t *testing.T) {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		ws := bulkyMCPWorkspace(t)
		writeTree(t, ws, map[string]string{".govibe/commands/readonly.md": "---\nallowedTools: [read_file]\n---\nRead $ARGUMENTS\n"})
		model := scripted.Start(t,
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("c1", "mcp_call_tool", `{"tool":"mcp__e__echo","arguments":{"text":"hi"}}`)}},
			scripted.Reply{Text: "done"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws,
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "contextWindow": 32000}})
		r := send(t, ed, "", "/readonly a.txt")
		if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
		}
		if offered := toolNames(model.Requests()[0]); slices.Contains(offered, "mcp_call_tool") || slices.Contains(offered, "mcp_search_tools") {
			t.Fatalf("a command without MCP tools was offered %v", offered)
		}
		if got := toolResultFor(t, model, "c1"); !strings.Contains(got, "allowedTools") || strings.Contains(got, "echo: hi") {
			t.Fatalf("mcp_call_tool must be refused: %q", got)
		}
		if n := confirms(ed); n != 0 {
			t.Fatalf("%d questions for a refused tool", n)
		}
		expectValid(t, model)
	})
}
