package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecBuiltinCommands: commands that answer by themselves never call
// the model; /init and /spec become the turn's prompt; a bad /spec is a
// clear error.
func TestExecBuiltinCommands(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
	home := t.TempDir()
	writeFiles(t, home, map[string]string{".govibe/commands/git/commit.md": "---\ndescription: Commit with a message\nargument-hint: <message>\n---\nCommit the staged changes with message: $ARGUMENTS\n"})
	model := scripted.Start(t, scripted.Reply{Text: "Initialised."}, scripted.Reply{Text: "Proposed."}, scripted.Reply{Text: "Committed."})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home, "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}

	for _, c := range []struct{ cmd, want string }{
		{"/help", "/git:commit <message> — Commit with a message"},
		{"/help", "/undo — "},
		{"/skills", "code-reviewer (builtin)"},
		{"/cost", "0 requests"},
		{"/undo", "Nothing to undo"},
		{"/model other-model", "This session now uses other-model."},
	} {
		out, errOut, code := runExec(t, env, append(common, c.cmd)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("%s: exit %d, want %q in\n%s\n%s", c.cmd, code, c.want, out, errOut)
		}
	}
	if n := len(model.Requests()); n != 0 {
		t.Fatalf("local commands made %d model requests", n)
	}

	if out, errOut, code := runExec(t, env, append(common, "--approve", "edits", "/init")...); code != 0 {
		t.Fatalf("/init: exit %d\n%s\n%s", code, out, errOut)
	}
	if last := model.Requests()[0].LastUserMessage(); !strings.Contains(last, `load_skill("memory-bootstrap")`) || !strings.Contains(last, "AGENTS.md") {
		t.Fatalf("/init prompt: %s", last)
	}
	if out, errOut, code := runExec(t, env, append(common, "/spec proposal add dark mode")...); code != 0 {
		t.Fatalf("/spec: exit %d\n%s\n%s", code, out, errOut)
	}
	if last := model.Requests()[1].LastUserMessage(); !strings.Contains(last, `load_skill("spec-driven")`) || !strings.Contains(last, "proposal step") || !strings.Contains(last, "add dark mode") {
		t.Fatalf("/spec prompt: %s", last)
	}
	if out, errOut, code := runExec(t, env, append(common, "/git:commit fix the parser")...); code != 0 {
		t.Fatalf("/git:commit: exit %d\n%s\n%s", code, out, errOut)
	}
	if last := model.Requests()[2].LastUserMessage(); !strings.Contains(last, "Commit the staged changes with message: fix the parser") {
		t.Fatalf("custom command prompt: %s", last)
	}
	if out, errOut, code := runExec(t, env, append(common, "/spec frobnicate")...); code == 0 || !strings.Contains(out+errOut, "/spec needs a step") {
		t.Fatalf("/spec frobnicate: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestExecProjectCommandsNeedTrust: a project command is not a command in
// an untrusted workspace (the text goes to the model as typed, and the
// user is told why); trusted, it expands.
func TestExecProjectCommandsNeedTrust(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
	writeFiles(t, ws, map[string]string{".govibe/commands/ship.toml": "description = \"Ship it\"\nprompt = \"Run the release checklist for {{args}}\"\n"})
	model := scripted.Start(t, scripted.Reply{Text: "a"}, scripted.Reply{Text: "b"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}

	out, errOut, code := runExec(t, env, append(common, "/ship v2")...)
	if code != 0 || !strings.Contains(errOut, "not trusted") || !strings.Contains(errOut, ".govibe/commands") {
		t.Fatalf("untrusted: exit %d\n%s\n%s", code, out, errOut)
	}
	if last := model.Requests()[0].LastUserMessage(); strings.Contains(last, "release checklist") || !strings.Contains(last, "/ship v2") {
		t.Fatalf("untrusted project command expanded: %s", last)
	}
	if out, errOut, code = runExec(t, env, append(common, "--trust", "/ship v2")...); code != 0 {
		t.Fatalf("trusted: exit %d\n%s\n%s", code, out, errOut)
	}
	if last := model.Requests()[1].LastUserMessage(); !strings.Contains(last, "Run the release checklist for v2") {
		t.Fatalf("trusted project command: %s", last)
	}
}
