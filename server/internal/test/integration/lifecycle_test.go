package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestCorruptDatabaseMovedAsideAndReported: a damaged sessions.db is never
// silently emptied: it is moved aside, the user is told, and the sidecar
// works on a fresh database.
func TestCorruptDatabaseMovedAsideAndReported(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		state := t.TempDir()
		junk := []byte(strings.Repeat("not a database ", 400))
		os.WriteFile(filepath.Join(state, "sessions.db"), junk, 0o600)
		model := scripted.Start(t, scripted.Reply{Text: "fresh start"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, StateDir: state, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
		var n protocol.ServerNotice
		ed.Await("server/notice", 20*time.Second, func(e *fakeeditor.Editor) bool {
			ns := e.Notifications("server/notice")
			return len(ns) > 0 && json.Unmarshal(ns[0].Params, &n) == nil
		})
		if n.Level != "warning" || !strings.Contains(n.Message, "sessions.db") {
			t.Fatalf("notice %+v", n)
		}
		moved, _ := filepath.Glob(filepath.Join(state, "sessions.db.corrupt-*"))
		if len(moved) == 0 {
			t.Fatal("the damaged file was not kept")
		}
		if b, _ := os.ReadFile(moved[0]); string(b) != string(junk) {
			t.Fatal("the damaged file was altered")
		}
		r := send(t, ed, "", "hello")
		if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("status %s", fin.Status)
		}
	})
}

// TestExitRightBeforeClosingThePipe: an editor that sends shutdown and
// exit and closes stdin at once still gets a clean exit (status 0).
func TestExitRightBeforeClosingThePipe(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	cmd := exec.Command(binary, "serve", "--stdio")
	in, _ := cmd.StdinPipe()
	cmd.Stdout = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	frame := func(v any) {
		b, _ := json.Marshal(v)
		in.Write([]byte("Content-Length: " + itoa(len(b)) + "\r\n\r\n"))
		in.Write(b)
	}
	frame(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": protocol.InitializeParams{
		ProtocolVersion: protocol.Version, WorkspaceFolders: []protocol.WorkspaceFolder{{Path: ws}}, StorageDir: state}})
	frame(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	frame(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after shutdown must be status 0: %v", err)
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the sidecar did not exit")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestUserFacingMessagesFollowTheLanguage: with the UI in Simplified
// Chinese, the sidecar's own messages are too.
func TestUserFacingMessagesFollowTheLanguage(t *testing.T) {
	ed := fakeeditor.Connect(t, fakeeditor.Options{Settings: map[string]any{
		"apiBaseUrl": "https://api.example.invalid/v1", "model": "m", "language": "zh-CN"}})
	r := send(t, ed, "", "你好")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	var msg, action string
	for _, ev := range ed.Events(r.SessionID) {
		if ev.Kind == kinds.Error {
			msg, action = ev.Error.Message, ev.Error.Action
		}
	}
	if !strings.Contains(msg, "API 密钥") || action != "setApiKey" {
		t.Fatalf("error %q action %q", msg, action)
	}
}

// TestLanguageChangeAppliesWithoutRestart: govibe.language changed while
// the sidecar runs applies at once, to the engine's messages and to the
// server's own (a model listing's error), with no restart.
func TestLanguageChangeAppliesWithoutRestart(t *testing.T) {
	settings := map[string]any{"apiBaseUrl": "https://api.example.invalid/v1", "model": "m", "language": "en"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Settings: settings})
	han := regexp.MustCompile(`\p{Han}`)
	listErr := func() string {
		err := ed.Call("models/list", protocol.ModelsEndpointParams{Preset: "custom", BaseURL: "http://127.0.0.1:1/v1"}, &protocol.ModelsListResult{})
		if err == nil {
			t.Fatal("listing an endpoint nothing listens on succeeded")
		}
		return err.Error()
	}
	if msg := listErr(); han.MatchString(msg) {
		t.Fatalf("in English the error reads %q", msg)
	}
	zh := map[string]any{}
	for k, v := range settings {
		zh[k] = v
	}
	zh["language"] = "zh-CN"
	if err := ed.Conn.Notify(context.Background(), "settings/didChange", protocol.SettingsDidChangeParams{Settings: protocol.Settings{Values: zh}}); err != nil {
		t.Fatal(err)
	}
	// An ordered request returns only after the notification before it was
	// handled (models/list itself is not ordered).
	if err := ed.Call("commands/list", protocol.CommandsListParams{}, &protocol.CommandsListResult{}); err != nil {
		t.Fatal(err)
	}
	if msg := listErr(); !han.MatchString(msg) {
		t.Fatalf("after switching to zh-CN the server's error reads %q", msg)
	}
	r := send(t, ed, "", "你好")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	for _, ev := range ed.Events(r.SessionID) {
		if ev.Kind == kinds.Error && !han.MatchString(ev.Error.Message) {
			t.Fatalf("after switching to zh-CN the engine's error reads %q", ev.Error.Message)
		}
	}
}
