package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// mcpWorkspace is a workspace whose .govibe/mcp.json starts mcpecho as
// server "e".
func mcpWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"e": map[string]any{"command": mcpEcho}}})
	if err := os.MkdirAll(filepath.Join(ws, ".govibe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".govibe", "mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

var echoCall = scripted.ToolCall{ID: "m1", Name: "mcp__e__echo", Arguments: `{"text":"hi"}`}

// TestMCPConfirmResumesAfterRestart: an MCP call waiting on its card is
// asked again by the next sidecar, with the server and tool named; the
// answer runs the real server's tool and the turn finishes.
func TestMCPConfirmResumesAfterRestart(t *testing.T) {
	for _, how := range stoppers {
		t.Run(how.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			p := &parked{ws: mcpWorkspace(t), state: t.TempDir()}
			p.model = scripted.Start(t, scripted.Reply{Text: "Calling it.", ToolCalls: []scripted.ToolCall{echoCall}}, scripted.Reply{Text: "It echoed."})
			p.settings = map[string]any{"apiBaseUrl": p.model.URL(), "model": "m"}
			ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: p.ws, StateDir: p.state, Settings: p.settings})
			r := send(t, ed, "", "echo hi")
			p.sid, p.turn = r.SessionID, r.TurnID
			p.confirm = awaitConfirm(t, ed, 1)
			if p.confirm.Kind != protocol.ConfirmTool || p.confirm.Server != "e" || p.confirm.Tool != "echo" ||
				p.confirm.Command != "mcp__e__echo" || p.confirm.Question != `{"text":"hi"}` ||
				!reflect.DeepEqual(p.confirm.AllowRules, []string{"mcp__e__echo"}) {
				t.Fatalf("MCP card %+v", p.confirm)
			}
			how.stop(t, ed)

			ed, load := p.restart(t)
			c := p.expectRestored(t, ed, load)
			if c.Server != "e" || c.Tool != "echo" {
				t.Fatalf("restored card lost its server and tool: %+v", c)
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
			if fin := ed.AwaitTurnFinished(p.sid, p.turn, 30*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if got := toolResultFor(t, p.model, "m1"); !strings.Contains(got, "echo: hi") {
				t.Fatalf("the model got %q", got)
			}
			expectValid(t, p.model)
			expectSettled(t, ed, p.sid)
		})
	}
}

// TestMCPAlwaysAllowAndReject: a rejected MCP call reaches the model with
// the reason; "Always allow" on the next card writes mcp__e__echo, and the
// third call runs unasked.
func TestMCPAlwaysAllowAndReject(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ws := mcpWorkspace(t)
	call2 := echoCall
	call2.ID = "m2"
	call3 := echoCall
	call3.ID = "m3"
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{echoCall}}, scripted.Reply{Text: "ok"},
		scripted.Reply{ToolCalls: []scripted.ToolCall{call2}}, scripted.Reply{Text: "ok"},
		scripted.Reply{ToolCalls: []scripted.ToolCall{call3}}, scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "one")
	c := awaitConfirm(t, ed, 1)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "not now"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if got := toolResultFor(t, model, "m1"); !strings.Contains(got, "not now") {
		t.Fatalf("rejection reached the model as %q", got)
	}
	r2 := send(t, ed, r.SessionID, "two")
	c2 := awaitConfirm(t, ed, 2)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c2.ID, Decision: "accept", AlwaysAllow: true})
	ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second)
	r3 := send(t, ed, r.SessionID, "three")
	if fin := ed.AwaitTurnFinished(r3.SessionID, r3.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("third turn %s", fin.Status)
	}
	if n := confirms(ed); n != 2 {
		t.Fatalf("%d questions, want 2: the always-allowed tool asked again", n)
	}
	if got := toolResultFor(t, model, "m3"); !strings.Contains(got, "echo: hi") {
		t.Fatalf("third call got %q", got)
	}
}

// TestMCPInputsFromTheEditor: a .vscode/mcp.json server whose env names a
// prompted input waits for it (its status names the input as the file
// declares it); mcp/setInputs supplies the value, the server starts with
// it, and the value never reaches the sidecar's log.
func TestMCPInputsFromTheEditor(t *testing.T) {
	const secret = "s3cret-token-value-42"
	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{
		"inputs": []any{map[string]any{"type": "promptString", "id": "echo-token", "description": "Token of the echo server", "password": true}},
		"servers": map[string]any{"e": map[string]any{"command": mcpEcho,
			"env": map[string]any{"MCPECHO_TOKEN": "${input:echo-token}", "MCPECHO_REQUIRE_TOKEN": secret}}},
	})
	if err := os.MkdirAll(filepath.Join(ws, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".vscode", "mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state,
		Settings: map[string]any{"apiBaseUrl": "http://127.0.0.1:1", "model": "m", "logLevel": "debug"}})
	var st protocol.MCPStatusResult
	if err := ed.Call("mcp/status", protocol.MCPStatusParams{Connect: true}, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 1 || st.Servers[0].State != "failed" || len(st.Servers[0].NeedsInputs) != 1 ||
		st.Servers[0].NeedsInputs[0] != (protocol.MCPInput{ID: "echo-token", Description: "Token of the echo server", Password: true}) {
		t.Fatalf("before the input: %+v", st.Servers)
	}
	// A fresh result each time: decoding into the old one would keep
	// the fields the new answer omits.
	if err := ed.Call("mcp/setInputs", protocol.MCPSetInputsParams{Values: map[string]string{"echo-token": secret}}, nil); err != nil {
		t.Fatal(err)
	}
	st = protocol.MCPStatusResult{}
	if err := ed.Call("mcp/status", protocol.MCPStatusParams{Connect: true}, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 1 || st.Servers[0].State != "connected" || st.Servers[0].Tools != 4 || len(st.Servers[0].NeedsInputs) != 0 {
		t.Fatalf("after the input: %+v", st.Servers)
	}
	logs, _ := filepath.Glob(filepath.Join(state, "logs", "*"))
	if len(logs) == 0 {
		t.Fatal("no sidecar log")
	}
	for _, l := range logs {
		if b, _ := os.ReadFile(l); strings.Contains(string(b), secret) {
			t.Fatalf("the input's value is in the log %s", l)
		}
	}
}
