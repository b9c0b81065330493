package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestPermissionsCommand: govibe permissions adds, lists and revokes the
// always-allow rules; bad rules and unknown ones fail clearly; a headless
// run honours a rule from the file (the command runs without --approve).
func TestPermissionsCommand(t *testing.T) {
	env := userConfig(t, "")
	if out, errOut, code := runGovibe(t, env, "permissions", "list"); code != 0 || out != "" || !strings.Contains(errOut, "no always-allow rules") {
		t.Fatalf("empty list: %q %q %d", out, errOut, code)
	}
	if _, errOut, code := runGovibe(t, env, "permissions", "add", "Bash(go test"); code != 1 || !strings.Contains(errOut, "closing parenthesis") {
		t.Fatalf("bad rule: %q %d", errOut, code)
	}
	if out, _, code := runGovibe(t, env, "permissions", "add", "Bash(touch made.txt:*)", "mcp__files__read"); code != 0 || !strings.Contains(out, "added Bash(touch made.txt:*)") {
		t.Fatalf("add: %q %d", out, code)
	}
	out, _, code := runGovibe(t, env, "permissions", "list", "--json")
	if code != 0 || !strings.Contains(out, `"rule": "mcp__files__read"`) || !strings.Contains(out, "allow-rules.json") {
		t.Fatalf("list --json: %q", out)
	}

	// A headless run: the rule lets the command run under --approve none.
	ws := gitRepo(t, map[string]string{"main.go": "package main\n"})
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{tc("s1", "run_shell_command", `{"command":"touch made.txt"}`)}}, scripted.Reply{Text: "made"})
	_, errOut, code := runGovibe(t, append(env, "GOVIBE_API_KEY=sk-test-abcdefgh12345678"), "exec", "--workspace", ws, "--state-dir", t.TempDir(),
		"--base-url", model.URL(), "--model", "m", "--output", "text", "make it")
	if code != 0 {
		t.Fatalf("exec: %d %s", code, errOut)
	}
	if r := model.Requests()[1]; !strings.Contains(r.Messages[len(r.Messages)-1].Content, "exit code 0") {
		t.Fatalf("the allowed command did not run: %q", r.Messages[len(r.Messages)-1].Content)
	}

	if out, _, code := runGovibe(t, env, "permissions", "revoke", "Bash(touch made.txt:*)"); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %q %d", out, code)
	}
	if _, errOut, code := runGovibe(t, env, "permissions", "revoke", "Bash(touch made.txt:*)"); code != 1 || !strings.Contains(errOut, "no such always-allow rule") {
		t.Fatalf("revoke again: %q %d", errOut, code)
	}
	if _, _, code := runGovibe(t, env, "permissions", "frobnicate"); code != 2 {
		t.Fatalf("unknown subcommand exit %d", code)
	}
}
