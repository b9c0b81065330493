package integration

import (
	"context"
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

// TestTrustGrantReloadsProjectConfig: in an untrusted workspace a project
// command is not offered and the editor is told what was skipped; after
// workspace/didChangeTrust the command is listed and expands, without a
// restart. commands/list, files/complete and mcp/status answer.
func TestTrustGrantReloadsProjectConfig(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		for name, body := range map[string]string{
			".govibe/commands/ship.md": "---\ndescription: Ship a release\nargument-hint: <version>\n---\nRun the release checklist for $1\n",
			"src/handler.go":           "package src\n",
		} {
			p := filepath.Join(ws, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		model := scripted.Start(t, scripted.Reply{Text: "shipping"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789", Untrusted: true,
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}})

		var list protocol.CommandsListResult
		if err := ed.Call("commands/list", protocol.CommandsListParams{}, &list); err != nil {
			t.Fatal(err)
		}
		names := map[string]protocol.CommandInfo{}
		for _, c := range list.Commands {
			names[c.Name] = c
		}
		if _, ok := names["ship"]; ok {
			t.Fatal("an untrusted project's command is listed")
		}
		for _, want := range []string{"help", "init", "compact", "spec", "undo", "skills"} {
			if names[want].Description == "" {
				t.Fatalf("/%s missing from commands/list: %+v", want, list.Commands)
			}
		}
		ed.Await("trust notice", 10*time.Second, func(e *fakeeditor.Editor) bool {
			for _, n := range e.Notifications("server/notice") {
				if strings.Contains(string(n.Params), ".govibe/commands") {
					return true
				}
			}
			return false
		})

		if err := ed.Conn.Notify(context.Background(), "workspace/didChangeTrust", protocol.WorkspaceTrustParams{Trusted: true}); err != nil {
			t.Fatal(err)
		}
		// commands/list is ordered after the notification: no waiting.
		var after protocol.CommandsListResult
		if err := ed.Call("commands/list", protocol.CommandsListParams{Prefix: "sh"}, &after); err != nil {
			t.Fatal(err)
		}
		if len(after.Commands) != 1 || after.Commands[0].Name != "ship" || after.Commands[0].ArgumentHint != "<version>" {
			t.Fatalf("after trust: %+v", after.Commands)
		}
		r := send(t, ed, "", "/ship 2.0")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if u := model.Requests()[0].LastUserMessage(); !strings.Contains(u, "Run the release checklist for 2.0") {
			t.Fatalf("the trusted command did not expand: %s", u)
		}

		var files protocol.FilesCompleteResult
		if err := ed.Call("files/complete", protocol.FilesCompleteParams{Query: "hndlr"}, &files); err != nil {
			t.Fatal(err)
		}
		if len(files.Items) == 0 || files.Items[0].Path != "src/handler.go" {
			t.Fatalf("files/complete: %+v", files)
		}
		var st protocol.MCPStatusResult
		if err := ed.Call("mcp/status", protocol.MCPStatusParams{}, &st); err != nil || st.Servers == nil {
			t.Fatalf("mcp/status: %+v %v", st, err)
		}
		var bad json.RawMessage
		if err := ed.Call("mcp/restart", protocol.MCPServerParams{Name: "nope"}, &bad); err == nil {
			t.Fatal("restarting an unknown MCP server must fail")
		}
	})
}
