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

func trustNotices(ed *fakeeditor.Editor) (shown []protocol.ServerNotice, withdrawn int) {
	for _, n := range ed.Notifications("server/notice") {
		var sn protocol.ServerNotice
		if json.Unmarshal(n.Params, &sn) != nil || sn.Action != "trustWorkspace" {
			continue
		}
		if sn.Withdraw {
			withdrawn++
		} else {
			shown = append(shown, sn)
		}
	}
	return shown, withdrawn
}

// TestTrustGrantWithdrawsTheNotice: an untrusted workspace is told what
// was skipped (its MCP server and its own settings), both notices
// offering trust. Trust granted from anywhere (workspace/didChangeTrust)
// withdraws them, applies the workspace's settings (its deny rule now
// refuses a command) and starts the project's MCP server without
// anything asking for it.
func TestTrustGrantWithdrawsTheNotice(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		ws := mcpWorkspace(t)
		model := scripted.Start(t, shellCall("s1", "touch made.txt"), scripted.Reply{Text: "tried"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, Untrusted: true,
			Settings:          map[string]any{"apiBaseUrl": model.URL(), "model": "m"},
			WorkspaceSettings: map[string]any{"permissions.deny": []any{"Bash(touch *)"}}})

		ed.Await("the untrusted notices", 10*time.Second, func(e *fakeeditor.Editor) bool {
			shown, _ := trustNotices(e)
			var mcp, settings bool
			for _, n := range shown {
				mcp = mcp || strings.Contains(n.Message, ".govibe/mcp.json")
				settings = settings || strings.Contains(n.Message, "permissions.deny")
			}
			return mcp && settings
		})
		var st protocol.MCPStatusResult
		if err := ed.Call("mcp/status", protocol.MCPStatusParams{}, &st); err != nil || len(st.Servers) != 0 || len(st.Skipped) != 1 {
			t.Fatalf("untrusted mcp/status: %+v %v", st, err)
		}

		if err := ed.Conn.Notify(context.Background(), "workspace/didChangeTrust", protocol.WorkspaceTrustParams{Trusted: true}); err != nil {
			t.Fatal(err)
		}
		ed.Await("the withdrawal", 10*time.Second, func(e *fakeeditor.Editor) bool {
			_, w := trustNotices(e)
			return w > 0
		})
		if shown, _ := trustNotices(ed); len(shown) != 2 {
			t.Fatalf("trust notices shown again after the grant: %+v", shown)
		}

		// The MCP server starts by itself; mcp/status (no connect) only looks.
		deadline := time.Now().Add(15 * time.Second)
		for {
			if err := ed.Call("mcp/status", protocol.MCPStatusParams{}, &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Servers) == 1 && st.Servers[0].State == "connected" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the trusted project's MCP server did not start: %+v", st)
			}
			time.Sleep(50 * time.Millisecond)
		}

		r := send(t, ed, "", "make a file")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if got := lastToolResult(t, model); !strings.Contains(got, "Bash(touch *)") || confirms(ed) != 0 {
			t.Fatalf("the workspace's deny rule did not apply after trust: %q (%d questions)", got, confirms(ed))
		}
		if _, err := os.Stat(filepath.Join(ws, "made.txt")); err == nil {
			t.Fatal("the denied command ran")
		}
	})
}
