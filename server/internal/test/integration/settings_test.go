package integration

import (
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

// awaitNotice waits for a server/notice containing want.
func awaitNotice(t *testing.T, ed *fakeeditor.Editor, want string) protocol.ServerNotice {
	t.Helper()
	var found protocol.ServerNotice
	ed.Await("a server/notice containing "+want, 20*time.Second, func(e *fakeeditor.Editor) bool {
		for _, n := range e.Notifications("server/notice") {
			var sn protocol.ServerNotice
			if json.Unmarshal(n.Params, &sn) == nil && strings.Contains(sn.Message, want) {
				found = sn
				return true
			}
		}
		return false
	})
	return found
}

func delaySession(t *testing.T, bin string, values, ws map[string]any) (*fakeeditor.Editor, string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("r1", "read_file", `{"filePath":"a.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("e1", "edit", `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`)}},
		scripted.Reply{Text: "done"})
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": false}
	for k, v := range values {
		settings[k] = v
	}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: dir, Settings: settings, WorkspaceSettings: ws})
	return ed, dir
}

// Issue 15.12: the countdown is in milliseconds end to end. The old key
// (documented as ms, read as s) still works, both readings of it.
func TestEditsDelayIsMillisecondsEndToEnd(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		for _, c := range []struct {
			values map[string]any
			want   int
		}{
			{map[string]any{"autoApprove.editsDelayMs": 3000}, 3000},
			{map[string]any{"autoApprove.editsDelay": 3000}, 3000},
			{map[string]any{"autoApprove.editsDelay": 3}, 3000},
			{map[string]any{"autoApprove": map[string]any{"editsDelayMs": 250}}, 250},
		} {
			ed, _ := delaySession(t, bin, c.values, nil)
			r := send(t, ed, "", "capitalise")
			got := awaitConfirm(t, ed, 1)
			if got.AutoAcceptMs != c.want {
				t.Fatalf("%v: autoAcceptMs %d, want %d", c.values, got.AutoAcceptMs, c.want)
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: got.ID, Decision: "reject"})
			ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
			if _, legacy := c.values["autoApprove.editsDelay"]; legacy {
				awaitNotice(t, ed, `"autoApprove.editsDelayMs"`)
			}
		}
	})
}

// A workspace may restrict but never allow: its confirmChanges=false is
// ignored (the edit still asks), so is its endpoint, and a notice names
// each ignored key.
func TestWorkspaceSettingsAreFilteredByScope(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, dir := delaySession(t, bin, nil, map[string]any{
			"confirmChanges": false, "apiBaseUrl": "http://127.0.0.1:1", "permissions.deny": []any{"Edit(secret/**)"},
		})
		r := send(t, ed, "", "capitalise")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "edit" {
			t.Fatalf("%+v", c)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject"})
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if fin.Status != "done" {
			t.Fatalf("the workspace's apiBaseUrl must not be used: %+v", fin)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\n" {
			t.Fatalf("applied without asking: %q", b)
		}
		n := awaitNotice(t, ed, `"confirmChanges"`)
		if n.Level != "warning" || !strings.Contains(n.Message, "stricter") {
			t.Fatalf("%+v", n)
		}
		awaitNotice(t, ed, `"apiBaseUrl"`)
	})
}
