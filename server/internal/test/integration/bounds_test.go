package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestOversizeInputs sends what once took the sidecar to gigabytes or
// echoed megabytes back: an over-long header line, a 65 MB message and an
// 8 MB search query. Each is refused with a short, clear answer, the next
// request is still served, and no log line carries the input.
func TestOversizeInputs(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed := connect(t, bin, scripted.Start(t), map[string]any{"logLevel": "debug"})
		alive := func(after string) {
			t.Helper()
			var list protocol.SessionListResult
			if err := ed.Call("session/list", protocol.SessionListParams{}, &list); err != nil {
				t.Fatalf("after %s the sidecar no longer answers: %v", after, err)
			}
		}
		if err := ed.RawWrite([]byte("X-Junk: " + strings.Repeat("h", 1<<20) + "\r\n")); err != nil {
			t.Fatal(err)
		}
		alive("a 1 MB header line")
		params := strings.Repeat("p", 65<<20)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":4141,"method":"session/search","params":{"query":%q}}`, params)
		if err := ed.RawWrite([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))); err != nil {
			t.Fatal(err)
		}
		alive("a 65 MB message")

		err := ed.Call("session/search", protocol.SessionSearchParams{Query: strings.Repeat("needle ", 8<<20/7)}, nil)
		if err == nil || !strings.Contains(err.Error(), "at most 1024 are allowed") || len(err.Error()) > 2048 {
			t.Fatalf("an 8 MB query must be refused briefly, got %d bytes: %.300v", len(fmt.Sprint(err)), err)
		}
		alive("an 8 MB search")

		logs := ed.Stderr()
		if b, err := os.ReadFile(filepath.Join(ed.StateDir, "logs", "govibe.log")); err == nil {
			logs += string(b)
		}
		for _, line := range strings.Split(logs, "\n") {
			if len(line) > 16<<10 {
				t.Fatalf("a log line of %d bytes: %.200s", len(line), line)
			}
		}
	})
}
