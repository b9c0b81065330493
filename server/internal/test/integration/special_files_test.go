//go:build unix

package integration

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestFIFOInTheWorkspaceThenSIGTERM is the red team's case end to end
// (issue 31): the model reads, searches and overwrites a FIFO inside the
// workspace. Each call answers at once with the kind named (before, the
// first blocked the turn for good and the sidecar then ignored SIGTERM),
// the turn finishes, and the sidecar exits on SIGTERM.
func TestFIFOInTheWorkspaceThenSIGTERM(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			call("r1", "read_file", `{"filePath":"pipe"}`),
			call("f1", "find_in_file", `{"filePath":"pipe","searchString":"x"}`),
		}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"pipe","content":"x"}`)}},
		scripted.Reply{Text: "done"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws,
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "confirmChanges": false}})
	r := send(t, ed, "", "read the pipe")
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second); fin.Status != "done" {
		t.Fatalf("turn status %s\n%s", fin.Status, ed.Stderr())
	}
	reqs := model.Requests()
	results := map[string]string{}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	for _, id := range []string{"r1", "f1", "w1"} {
		if !strings.Contains(results[id], "pipe is a named pipe (FIFO), not a regular file") {
			t.Errorf("%s: %q", id, results[id])
		}
	}
	if fi, err := os.Lstat(filepath.Join(ws, "pipe")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi, err)
	}
	p := ed.Process()
	// The sidecar's stdout closes when it exits, which ends the editor's
	// connection.
	exited := ed.Conn.DisconnectNotify()
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("the sidecar did not exit within 20 s of SIGTERM\n%s", ed.Stderr())
	}
}
