package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestJunkBeforeFramesIsSkipped is the red team's wedge (issue 31): stray
// bytes without a line end before a frame left every later request
// unanswered, shutdown included. Over real stdio (and in-process), junk
// before initialize, between requests and a header cut short are skipped,
// and initialize, session/list and shutdown are answered.
func TestJunkBeforeFramesIsSkipped(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t)
		o := fakeeditor.Options{Binary: bin, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}, APIKey: "sk-test-key-0123456789"}
		ed := fakeeditor.New(t, o)
		if err := ed.RawWrite([]byte("GARBAGE")); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := ed.Initialize(ctx, o, protocol.Version)
		if err != nil {
			t.Fatalf("initialize after junk: %v\n%s", err, ed.Stderr())
		}
		if res.ProtocolVersion != protocol.Version {
			t.Fatalf("protocol %d", res.ProtocolVersion)
		}
		for _, junk := range []string{"\x00\xffjunk", "Content-Length: 12\r\n", "Content-Len", strings.Repeat("z", 10000)} {
			if err := ed.RawWrite([]byte(junk)); err != nil {
				t.Fatal(err)
			}
			var list protocol.SessionListResult
			if err := ed.Call("session/list", protocol.SessionListParams{}, &list); err != nil {
				t.Fatalf("session/list after %.20q: %v", junk, err)
			}
		}
		if err := ed.RawWrite([]byte("GARBAGE")); err != nil {
			t.Fatal(err)
		}
		if err := ed.Conn.Call(ctx, "shutdown", nil, nil); err != nil {
			t.Fatalf("shutdown after junk: %v", err)
		}
	})
}
