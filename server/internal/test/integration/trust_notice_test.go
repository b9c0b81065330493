package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestUntrustedNoticeNamesKindsAndOffersTrust: an untrusted workspace's
// notice names each skipped kind with its files and carries the
// trustWorkspace action; its MCP server is not started.
func TestUntrustedNoticeNamesKindsAndOffersTrust(t *testing.T) {
	ws := mcpWorkspace(t)
	for name, body := range map[string]string{
		".govibe/hooks.json":        `{"hooks":{}}`,
		".govibe/agents/x.md":       "---\nname: x\n---\nbody\n",
		".govibe/commands/c.md":     "do it\n",
		".vscode/mcp.json":          `{"servers":{}}`,
		".govibe/skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, Untrusted: true, Settings: map[string]any{"apiBaseUrl": "http://127.0.0.1:1", "model": "m"}})
	var n protocol.ServerNotice
	ed.Await("trust notice", 10*time.Second, func(e *fakeeditor.Editor) bool {
		for _, raw := range e.Notifications("server/notice") {
			if json.Unmarshal(raw.Params, &n) == nil && n.Action == "trustWorkspace" {
				return true
			}
		}
		return false
	})
	for _, want := range []string{"hooks (.govibe/hooks.json)", "MCP servers (.govibe/mcp.json, .vscode/mcp.json)", "custom commands (.govibe/commands)", "custom agents (.govibe/agents)", "skills (.govibe/skills)"} {
		if !strings.Contains(n.Message, want) {
			t.Fatalf("notice %q lacks %q", n.Message, want)
		}
	}
	var st protocol.MCPStatusResult
	if err := ed.Call("mcp/status", protocol.MCPStatusParams{Connect: true}, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 0 || len(st.Skipped) == 0 {
		t.Fatalf("untrusted MCP status %+v", st)
	}
}
