package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestShowNotification: show_notification reaches the editor as a
// notification event with its severity, the model is told it was shown,
// and a turn's sixth notification is refused without an event.
func TestShowNotification(t *testing.T) {
	note := func(id, args string) scripted.ToolCall {
		return scripted.ToolCall{ID: id, Name: "show_notification", Arguments: args}
	}
	var flood []scripted.ToolCall
	for _, id := range []string{"n2", "n3", "n4", "n5", "n6"} {
		flood = append(flood, note(id, `{"message":"again `+id+`"}`))
	}
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{note("n1", `{"message":"The build failed.","severity":"warning"}`)}},
		scripted.Reply{ToolCalls: flood},
		scripted.Reply{Text: "Done."})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "build it and tell me")
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	var shown []protocol.Notification
	for _, ev := range ed.Events(r.SessionID) {
		if ev.Kind == kinds.Notification {
			if ev.Notification == nil || ev.TurnID != r.TurnID {
				t.Fatalf("notification event %+v", ev)
			}
			shown = append(shown, *ev.Notification)
		}
	}
	if len(shown) != 5 || shown[0] != (protocol.Notification{Severity: "warning", Message: "The build failed."}) {
		t.Fatalf("shown %+v", shown)
	}
	if got := toolResultFor(t, model, "n1"); got != "Shown to the user (warning): The build failed." {
		t.Fatalf("n1 result %q", got)
	}
	// The flood's calls run in parallel (the tool is read-only): which
	// one is refused is not fixed, but exactly one is, and it was not shown.
	refused := 0
	for _, id := range []string{"n2", "n3", "n4", "n5", "n6"} {
		got := toolResultFor(t, model, id)
		if strings.Contains(got, "already showed 5 notifications") {
			refused++
			for _, n := range shown {
				if n.Message == "again "+id {
					t.Fatalf("%s was refused and shown", id)
				}
			}
		}
	}
	if refused != 1 {
		t.Fatalf("%d of the flood refused, want 1", refused)
	}
	expectValid(t, model)
}
