package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecBuiltinCommandsOnASession: the built-ins that answer from a
// session's history, run on one that has a turn behind it: /cost counts
// the turn's requests, /sessions lists the session, /model shows its
// model, /undo puts back the file the turn changed (and says so), /skills
// reload reads the folders again and refuses another argument, and every
// /spec step becomes the turn's prompt. None of the local ones asks the
// model.
func TestExecBuiltinCommandsOnASession(t *testing.T) {
	ws := gitRepo(t, map[string]string{"notes.txt": "original\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("r1", "read_file", `{"filePath":"notes.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("w1", "write_file", `{"filePath":"notes.txt","content":"changed\n"}`)}},
		scripted.Reply{Text: "Changed it."},
		scripted.Reply{Text: "Applying."}, scripted.Reply{Text: "Archiving."}, scripted.Reply{Text: "Validating."})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m"}

	out, errOut, code := runExec(t, env, append(common, "--approve", "edits", "--output", "stream-json", "change the notes")...)
	if code != 0 {
		t.Fatalf("turn: exit %d\n%s\n%s", code, out, errOut)
	}
	var init struct {
		SessionID string `json:"session_id"`
	}
	if err := json.NewDecoder(bufio.NewReader(strings.NewReader(out))).Decode(&init); err != nil || init.SessionID == "" {
		t.Fatalf("init line: %q (%v)", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "notes.txt")); string(b) != "changed\n" {
		t.Fatalf("the turn did not change notes.txt: %q\n%s", b, out)
	}
	session := append(common, "--output", "text", "--session", init.SessionID)
	for _, c := range []struct{ cmd, want string }{
		{"/cost", "This session: 3 requests"},
		{"/sessions", init.SessionID},
		{"/model", "Model: m"},
		{"/skills reload", "memory-bootstrap (builtin)"},
		{"/undo", "Restored the workspace to before turn"},
	} {
		out, errOut, code := runExec(t, env, append(session, c.cmd)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("%s: exit %d, want %q in\n%s\n%s", c.cmd, code, c.want, out, errOut)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "notes.txt")); string(b) != "original\n" {
		t.Fatalf("/undo left notes.txt as %q", b)
	}
	if out, errOut, code := runExec(t, env, append(session, "/skills everything")...); code == 0 || !strings.Contains(out+errOut, `/skills takes no argument or "reload"`) {
		t.Fatalf("/skills everything: exit %d\n%s\n%s", code, out, errOut)
	}
	if n := len(model.Requests()); n != 3 {
		t.Fatalf("local commands asked the model: %d requests, want the turn's 3", n)
	}
	for i, step := range []string{"apply", "archive", "validate"} {
		if out, errOut, code := runExec(t, env, append(session, "/spec "+step+" add-dark-mode")...); code != 0 {
			t.Fatalf("/spec %s: exit %d\n%s\n%s", step, code, out, errOut)
		}
		last := model.Requests()[3+i].LastUserMessage()
		if !strings.Contains(last, `load_skill("spec-driven")`) || !strings.Contains(last, step+" step") || !strings.Contains(last, "add-dark-mode") {
			t.Fatalf("/spec %s prompt: %s", step, last)
		}
	}
}
