package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// serveTestMCP is a real stdio MCP server: one tool, one prompt.
func serveTestMCP() {
	s := mcp.NewServer(&mcp.Implementation{Name: "testsrv", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text back"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "dumpenv", Description: "The server's environment"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review a file", Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Please review " + req.Params.Arguments["file"]}}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "test MCP server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func mcpProject(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"t": map[string]any{"command": exe, "env": map[string]string{"GOVIBE_MCP_TEST_SERVER": "1"}},
	}})
	ws := gitRepo(t, map[string]string{"main.go": "package main\n"})
	writeFiles(t, ws, map[string]string{".govibe/mcp.json": string(cfg)})
	return ws
}

// TestExecMCPEndToEnd: a project MCP server (a real stdio process) is not
// started in an untrusted workspace; trusted, its tool is offered after
// the built-ins, a call runs under --approve all and is declined without
// it, and its prompt is a slash command.
func TestExecMCPEndToEnd(t *testing.T) {
	ws := mcpProject(t)
	model := scripted.Start(t)
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}
	call := scripted.Reply{ToolCalls: []scripted.ToolCall{tc("m1", "mcp__t__echo", `{"text":"hi"}`)}}

	model.Enqueue(scripted.Reply{Text: "ok"})
	out, errOut, code := runExec(t, env, append(common, "hello")...)
	if code != 0 || !strings.Contains(errOut, ".govibe/mcp.json") {
		t.Fatalf("untrusted: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, x := range model.Requests()[0].Tools {
		if strings.HasPrefix(x.Name, "mcp__") {
			t.Fatalf("an untrusted project's MCP tool was offered: %s", x.Name)
		}
	}

	model.Enqueue(call, scripted.Reply{Text: "done"})
	if out, errOut, code = runExec(t, env, append(common, "--trust", "--approve", "all", "echo hi")...); code != 0 {
		t.Fatalf("trusted: exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := model.Requests()
	ts := reqs[1].Tools
	if len(ts) == 0 || ts[len(ts)-1].Name != "mcp__t__echo" {
		t.Fatalf("the MCP tool is not offered after the built-ins: %v", toolNamesOf(ts))
	}
	if r := toolResult(reqs[2], "m1"); !strings.Contains(r, "echo: hi") {
		t.Fatalf("MCP call result: %q", r)
	}

	model.Enqueue(call, scripted.Reply{Text: "done"})
	if out, errOut, code = runExec(t, env, append(common, "--trust", "echo hi")...); code != 0 {
		t.Fatalf("trusted without approval: exit %d\n%s\n%s", code, out, errOut)
	}
	if r := toolResult(model.Requests()[4], "m1"); strings.Contains(r, "echo: hi") || !strings.Contains(r, "declined") {
		t.Fatalf("an unapproved headless MCP call ran: %q", r)
	}

	model.Enqueue(call, scripted.Reply{Text: "done"})
	if out, errOut, code = runExec(t, env, append(common, "--trust", "--set", `permissions.allow=["mcp__t__*"]`, "echo hi")...); code != 0 {
		t.Fatalf("allow rule: exit %d\n%s\n%s", code, out, errOut)
	}
	if r := toolResult(model.Requests()[6], "m1"); !strings.Contains(r, "echo: hi") {
		t.Fatalf("an allow rule mcp__t__* did not permit the call: %q", r)
	}

	model.Enqueue(scripted.Reply{Text: "reviewed"})
	if out, errOut, code = runExec(t, env, append(common, "--trust", "/mcp:t:review main.go")...); code != 0 {
		t.Fatalf("MCP prompt: exit %d\n%s\n%s", code, out, errOut)
	}
	if n := len(model.Requests()); n != 8 {
		t.Fatalf("MCP prompt: %d requests\n%s\n%s", n, out, errOut)
	}
	if last := model.Requests()[7].LastUserMessage(); !strings.Contains(last, "Please review main.go") {
		t.Fatalf("MCP prompt as a command: %s", last)
	}
}

func toolNamesOf(ts []scripted.Tool) []string {
	var out []string
	for _, x := range ts {
		out = append(out, x.Name)
	}
	return out
}
