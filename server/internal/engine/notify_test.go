package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestShowNotificationEventAndHook: show_notification publishes a
// notification event on the turn's stream and tells Notification hooks
// the message (they read it from their JSON input).
func TestShowNotificationEventAndHook(t *testing.T) {
	got := filepath.Join(t.TempDir(), "hook-input.json")
	settings := hookSetting(t, map[string]map[string]string{
		"Notification": {"": "cat > " + got + "\n"},
	}, 0)
	x := enginetest.New(t, settings)
	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "n1", Name: "show_notification",
		Arguments: `{"message":"Migration finished.","severity":"error"}`}}}, scripted.Reply{Text: "ok"})
	sid, turn := x.Turn("", "migrate")
	evs := x.EventsOf(sid, kinds.Notification)
	if len(evs) != 1 || evs[0].TurnID != turn {
		t.Fatalf("notification events %+v", evs)
	}
	if n, ok := evs[0].Payload.(eventdata.Notification); !ok || n != (eventdata.Notification{Severity: "error", Message: "Migration finished."}) {
		t.Fatalf("payload %+v", evs[0].Payload)
	}
	x.Await("the Notification hook", func() bool {
		b, err := os.ReadFile(got)
		return err == nil && strings.Contains(string(b), `"message":"Migration finished."`) && strings.Contains(string(b), `"hook_event_name":"Notification"`)
	})
}
