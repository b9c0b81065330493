package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestCommandFilesChangedDuringASession: a command file written after the
// sidecar listed the commands is offered by the next commands/list and
// runs from the next message; an edit changes what it expands to, and a
// removed file is no longer offered. No restart, no reload command. (The
// e2e composer test once typed "/expl" into a list loaded before its
// command file existed.)
func TestCommandFilesChangedDuringASession(t *testing.T) {
	ws := t.TempDir()
	model := scripted.Start(t, scripted.Reply{Text: "ok"}, scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, APIKey: "sk-test-key-0123456789",
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}})

	list := func() map[string]protocol.CommandInfo {
		t.Helper()
		var r protocol.CommandsListResult
		if err := ed.Call("commands/list", protocol.CommandsListParams{}, &r); err != nil {
			t.Fatal(err)
		}
		out := map[string]protocol.CommandInfo{}
		for _, c := range r.Commands {
			out[c.Name] = c
		}
		return out
	}
	if _, ok := list()["explain"]; ok {
		t.Fatal("/explain listed before its file exists")
	}

	f := filepath.Join(ws, ".govibe", "commands", "explain.md")
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte("---\ndescription: Explain a file\n---\nExplain FIRST $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := list()["explain"]; got.Description != "Explain a file" {
		t.Fatalf("a command file added during the session is not listed: %+v", got)
	}
	r := send(t, ed, "", "/explain calc.go")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if u := model.Requests()[0].LastUserMessage(); !strings.Contains(u, "Explain FIRST calc.go") {
		t.Fatalf("the new command did not expand: %s", u)
	}

	// Same length, so only the time stamp tells the edit apart.
	if err := os.WriteFile(f, []byte("---\ndescription: Explain a file\n---\nExplain AGAIN $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(f, later, later); err != nil {
		t.Fatal(err)
	}
	r = send(t, ed, r.SessionID, "/explain calc.go")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if u := model.Requests()[1].LastUserMessage(); !strings.Contains(u, "Explain AGAIN calc.go") {
		t.Fatalf("the edited command still expands to its old text: %s", u)
	}

	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	if _, ok := list()["explain"]; ok {
		t.Fatal("a removed command file is still listed")
	}
}
