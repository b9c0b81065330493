package mcpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func stdioConfig(t *testing.T, name string) ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Name: name, Kind: KindStdio, Command: exe, Env: map[string]string{"GOVIBE_MCP_TEST_SERVER": "1"},
		ExcludeTools: []string{"secret"}, Timeout: 20 * time.Second}
}

func toolNames(ts []Tool) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

func TestStdioServerToolsCallsAndPrompts(t *testing.T) {
	imgs := t.TempDir()
	m := New([]ServerConfig{stdioConfig(t, "local")}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}, ImageDir: imgs})
	defer m.Close()
	ctx := context.Background()
	ts := m.Tools(ctx)
	if toolNames(ts) != "mcp__local__crash,mcp__local__echo,mcp__local__fail,mcp__local__picture" {
		t.Fatalf("tools: %s (status %+v)", toolNames(ts), m.Statuses())
	}
	if !ts[1].ReadOnly || !strings.Contains(string(ts[1].Schema), `"text"`) || !strings.HasPrefix(ts[1].Description, "[MCP server local]") {
		t.Fatalf("echo tool: %+v", ts[1])
	}
	r, err := m.Call(ctx, "local", "echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil || r.IsError || r.Text != "echo: hi" {
		t.Fatalf("echo: %+v %v", r, err)
	}
	if r, err = m.Call(ctx, "local", "fail", nil); err != nil || !r.IsError || r.Text != "disk full" {
		t.Fatalf("error result: %+v %v", r, err)
	}
	if r, err = m.Call(ctx, "local", "picture", nil); err != nil || len(r.Images) != 1 || filepath.Dir(r.Images[0].Path) != imgs ||
		!strings.Contains(r.Text, "note body") || !strings.Contains(r.Text, "[The tool returned an image (image/png, 67 bytes). It is shown to the user") {
		t.Fatalf("content conversion: %+v %v", r, err)
	}
	if _, err = m.Call(ctx, "local", "secret", nil); err == nil || !strings.Contains(err.Error(), "excluded") {
		t.Fatalf("excluded tool ran: %v", err)
	}
	ps := m.Prompts()
	if len(ps) != 1 || ps[0].Command != "mcp:local:review" || strings.Join(ps[0].Arguments, ",") != "file*" {
		t.Fatalf("prompts: %+v", ps)
	}
	text, err := m.GetPrompt(ctx, "local", "review", map[string]string{"file": "a.go"})
	if err != nil || text != "Please review a.go" {
		t.Fatalf("prompt: %q %v", text, err)
	}
	if text, err = m.ReadResource(ctx, "local", "mem://readme"); err != nil || text != "resource text" {
		t.Fatalf("resource: %q %v", text, err)
	}
	st := m.Statuses()
	if st[0].State != StateConnected || st[0].Tools != 4 || st[0].SchemaChars == 0 {
		t.Fatalf("status: %+v", st)
	}
}

func TestCrashIsReportedAndRestarted(t *testing.T) {
	m := New([]ServerConfig{stdioConfig(t, "flaky")}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	defer m.Close()
	ctx := context.Background()
	m.Tools(ctx)
	if _, err := m.Call(ctx, "flaky", "crash", nil); err == nil {
		t.Fatal("a crashed call must fail")
	}
	// The exit is noticed by the watcher goroutine; wait for the state.
	deadline := time.Now().Add(10 * time.Second)
	for m.Statuses()[0].State != StateFailed {
		if time.Now().After(deadline) {
			t.Fatalf("crash not noticed: %+v", m.Statuses())
		}
		time.Sleep(20 * time.Millisecond)
	}
	st := m.Statuses()[0]
	if st.Restarts != 1 || !strings.Contains(st.StderrTail, "crashing on purpose") {
		t.Fatalf("status after crash: %+v", st)
	}
	if err := m.Restart(ctx, "flaky"); err != nil {
		t.Fatal(err)
	}
	if r, err := m.Call(ctx, "flaky", "echo", json.RawMessage(`{"text":"back"}`)); err != nil || r.Text != "echo: back" {
		t.Fatalf("after restart: %+v %v", r, err)
	}
}

func TestFailedServerBacksOffAndOthersWork(t *testing.T) {
	bad := ServerConfig{Name: "missing", Kind: KindStdio, Command: "/nonexistent/mcp-server", Timeout: 5 * time.Second}
	m := New([]ServerConfig{bad, stdioConfig(t, "good"), {Name: "off", Kind: KindStdio, Command: "x", Disabled: true}}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	defer m.Close()
	ctx := context.Background()
	if got := toolNames(m.Tools(ctx)); !strings.Contains(got, "mcp__good__echo") || strings.Contains(got, "missing") {
		t.Fatalf("tools: %s", got)
	}
	st := m.Statuses()
	if st[0].Name != "good" || st[0].State != StateConnected || st[1].State != StateFailed || st[1].Error == "" || st[2].State != StateDisabled {
		t.Fatalf("statuses: %+v", st)
	}
	if _, err := m.Call(ctx, "missing", "x", nil); err == nil || !strings.Contains(err.Error(), "retrying in") {
		t.Fatalf("backoff not reported: %v", err)
	}
	if _, err := m.Call(ctx, "off", "x", nil); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("disabled: %v", err)
	}
	if err := m.SetEnabled("good", false); err != nil || m.Statuses()[0].State != StateDisabled {
		t.Fatalf("disable: %v %+v", err, m.Statuses())
	}
	if got := toolNames(m.Tools(ctx)); strings.Contains(got, "mcp__good__") {
		t.Fatalf("a disabled server's tools are offered: %s", got)
	}
	if err := m.Connect(ctx, "good"); err == nil {
		t.Fatal("a disabled server connected without being enabled")
	}
	if err := m.SetEnabled("good", true); err != nil {
		t.Fatal(err)
	}
	if err := m.Connect(ctx, "good"); err != nil || m.Statuses()[0].State != StateConnected {
		t.Fatalf("enable and connect: %v %+v", err, m.Statuses())
	}
	if got := toolNames(m.Tools(ctx)); !strings.Contains(got, "mcp__good__echo") {
		t.Fatalf("the re-enabled server's tools did not come back: %s", got)
	}
	if err := m.Connect(ctx, "nope"); err == nil {
		t.Fatal("connecting an unknown server succeeded")
	}
}

func TestStreamableHTTPServer(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if r.Header.Get("Authorization") != "Bearer t0k" {
			return nil
		}
		return testServer()
	}, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	m := New([]ServerConfig{{Name: "remote", Kind: KindHTTP, URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer t0k"},
		IncludeTools: []string{"echo"}, Timeout: 10 * time.Second}}, Options{})
	defer m.Close()
	ctx := context.Background()
	if got := toolNames(m.Tools(ctx)); got != "mcp__remote__echo" {
		t.Fatalf("includeTools: %s %+v", got, m.Statuses())
	}
	if r, err := m.Call(ctx, "remote", "echo", json.RawMessage(`{"text":"over http"}`)); err != nil || r.Text != "echo: over http" {
		t.Fatalf("http call: %+v %v", r, err)
	}
}

// The legacy HTTP+SSE transport: a URL ending in /sse (or type "sse")
// connects to a real SSE server, with its headers, and calls work.
func TestLegacySSEServer(t *testing.T) {
	h := mcp.NewSSEHandler(func(r *http.Request) *mcp.Server {
		if r.Header.Get("X-Key") != "k1" {
			return nil
		}
		return testServer()
	}, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	root := t.TempDir()
	cfgFile := filepath.Join(root, ".mcp.json")
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"old": map[string]any{"url": srv.URL + "/sse", "headers": map[string]string{"X-Key": "k1"}}}})
	if err := os.WriteFile(cfgFile, body, 0o644); err != nil {
		t.Fatal(err)
	}
	cfgs, problems, _ := Load(Sources(t.TempDir(), []string{root}), true, nil)
	if len(problems) != 0 || len(cfgs) != 1 || cfgs[0].Kind != KindSSE {
		t.Fatalf("config: %+v %v", cfgs, problems)
	}
	cfgs[0].Timeout = 10 * time.Second
	m := New(cfgs, Options{})
	defer m.Close()
	ctx := context.Background()
	if got := toolNames(m.Tools(ctx)); !strings.Contains(got, "mcp__old__echo") {
		t.Fatalf("tools over SSE: %s %+v", got, m.Statuses())
	}
	if r, err := m.Call(ctx, "old", "echo", json.RawMessage(`{"text":"over sse"}`)); err != nil || r.Text != "echo: over sse" {
		t.Fatalf("sse call: %+v %v", r, err)
	}
}

func TestLoadConfigFiles(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s), 0o644)
	}
	write(filepath.Join(home, ".govibe", "mcp.json"), `{"mcpServers":{"gh":{"command":"gh-mcp","args":["--token","${env:GOVIBE_TEST_TOKEN}"]},"dup":{"url":"https://user.example/mcp"}}}`)
	write(filepath.Join(root, ".vscode", "mcp.json"), `{
	  // VS Code's file has comments and inputs
	  "inputs": [{"id": "api-key", "type": "promptString", "password": true}],
	  "servers": {"db": {"type": "stdio", "command": "db-mcp", "env": {"KEY": "${input:api-key}"},},
	              "legacy": {"type": "sse", "url": "https://x.example/sse"}}
	}`)
	write(filepath.Join(root, ".mcp.json"), `{"mcpServers":{"dup":{"url":"https://project.example/mcp","timeoutMs":5000}, "bad":{"type":"carrier-pigeon"}}}`)
	t.Setenv("GOVIBE_TEST_TOKEN", "tok")

	cfgs, problems, skipped := Load(Sources(home, []string{root}), false, nil)
	if len(cfgs) != 2 || len(skipped) != 2 || len(problems) != 0 {
		t.Fatalf("untrusted: %+v %v %v", cfgs, problems, skipped)
	}
	cfgs, problems, _ = Load(Sources(home, []string{root}), true, func(id string) (string, bool) { return "", false })
	by := map[string]ServerConfig{}
	for _, c := range cfgs {
		by[c.Name] = c
	}
	if by["gh"].Args[1] != "tok" || by["db"].Kind != KindStdio || strings.Join(by["db"].NeedsInputs, ",") != "api-key" || by["legacy"].Kind != KindSSE {
		t.Fatalf("parsed: %+v", by)
	}
	if by["dup"].URL != "https://project.example/mcp" || by["dup"].Timeout != 5*time.Second {
		t.Fatalf("project beats user: %+v", by["dup"])
	}
	if len(problems) != 2 { // bad type, user dup ignored
		t.Fatalf("problems: %v", problems)
	}
	cfgs, _, _ = Load(Sources(home, []string{root}), true, func(id string) (string, bool) { return "secret-from-vault", id == "api-key" })
	for _, c := range cfgs {
		if c.Name == "db" && (c.Env["KEY"] != "secret-from-vault" || len(c.NeedsInputs) != 0) {
			t.Fatalf("input resolved: %+v", c)
		}
	}
}
