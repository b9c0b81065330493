package integration

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func shellCall(id, command string) scripted.Reply {
	return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id, "run_shell_command", `{"command":"`+command+`"}`)}}
}

func confirms(ed *fakeeditor.Editor) int { return len(ed.Notifications("confirm/requested")) }

// TestAlwaysAllowWrittenUsedRevoked: "Always allow" on a command card
// writes the card's rule to the user's allow-rules file (never the
// workspace); the next matching command runs unasked; once revoked, it
// asks again. A workspace's own allow rule never counts.
func TestAlwaysAllowWrittenUsedRevoked(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		xdg := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", xdg)
		file := filepath.Join(xdg, "govibe", "allow-rules.json")
		ws := t.TempDir()
		model := scripted.Start(t,
			shellCall("s1", "touch one.txt"), scripted.Reply{Text: "made one"},
			shellCall("s2", "touch one.txt two.txt"), scripted.Reply{Text: "made two"},
			shellCall("s3", "touch one.txt three.txt"), scripted.Reply{Text: "asked"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws,
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"},
			// A repository granting itself commands is ignored.
			WorkspaceSettings: map[string]any{"permissions.allow": []any{"Bash(touch:*)"}}})

		r := send(t, ed, "", "make one")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "shell" || !reflect.DeepEqual(c.AllowRules, []string{"Bash(touch one.txt:*)"}) {
			t.Fatalf("the card offers %v (kind %s), want Bash(touch one.txt:*): the workspace rule must not allow", c.AllowRules, c.Kind)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept", AlwaysAllow: true})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		b, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(b), `"Bash(touch one.txt:*)"`) {
			t.Fatalf("allow-rules file: %s %v", b, err)
		}
		if _, err := os.Stat(filepath.Join(ws, ".govibe")); err == nil {
			t.Fatal("something was written into the workspace")
		}
		var list protocol.PermissionsListResult
		if err := ed.Call("permissions/list", nil, &list); err != nil {
			t.Fatal(err)
		}
		if list.File != file || len(list.Rules) != 1 || list.Rules[0].Rule != "Bash(touch one.txt:*)" || list.Rules[0].Added == 0 {
			t.Fatalf("permissions/list: %+v", list)
		}

		// The rule is used: no question for the next matching command.
		r2 := send(t, ed, r.SessionID, "make two")
		if fin := ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("second turn %s", fin.Status)
		}
		if n := confirms(ed); n != 1 {
			t.Fatalf("the allowed command asked again (%d questions)", n)
		}
		if _, err := os.Stat(filepath.Join(ws, "two.txt")); err != nil {
			t.Fatalf("the allowed command did not run: %v", err)
		}

		// Revoked, it asks again.
		var after protocol.PermissionsListResult
		if err := ed.Call("permissions/revoke", protocol.PermissionsRevokeParams{Rule: "Bash(touch one.txt:*)"}, &after); err != nil {
			t.Fatal(err)
		}
		if len(after.Rules) != 0 {
			t.Fatalf("after revoke: %+v", after)
		}
		if err := ed.Call("permissions/revoke", protocol.PermissionsRevokeParams{Rule: "Bash(touch one.txt:*)"}, nil); err == nil {
			t.Fatal("revoking an absent rule succeeded")
		}
		r3 := send(t, ed, r.SessionID, "make three")
		c3 := awaitConfirm(t, ed, 2)
		if c3.Command != "touch one.txt three.txt" {
			t.Fatalf("asked about %q", c3.Command)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c3.ID, Decision: "reject", Reason: "no"})
		ed.AwaitTurnFinished(r3.SessionID, r3.TurnID, 20*time.Second)
		if _, err := os.Stat(filepath.Join(ws, "three.txt")); err == nil {
			t.Fatal("the rejected command ran")
		}
	})
}

// TestAlwaysAllowOnlyTheOfferedRules: accepting without AlwaysAllow
// writes nothing, and an edited command writes nothing either (the rule
// was proposed for the command shown, not the edit).
func TestAlwaysAllowOnlyTheOfferedRules(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	model := scripted.Start(t, shellCall("s1", "touch a.txt"), scripted.Reply{Text: "ok"},
		shellCall("s2", "touch b.txt"), scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "a")
	c := awaitConfirm(t, ed, 1)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	r2 := send(t, ed, r.SessionID, "b")
	c2 := awaitConfirm(t, ed, 2)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c2.ID, Decision: "accept", AlwaysAllow: true, Command: "touch c.txt"})
	ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second)
	var list protocol.PermissionsListResult
	if err := ed.Call("permissions/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Rules) != 0 {
		t.Fatalf("rules written: %+v", list.Rules)
	}
}
