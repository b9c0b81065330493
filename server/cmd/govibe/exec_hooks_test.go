package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecProjectHooksNeedTrust: a project's .govibe/hooks.json runs only
// in a trusted workspace; untrusted, the user is told it was skipped.
func TestExecProjectHooksNeedTrust(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
	writeFiles(t, ws, map[string]string{".govibe/hooks.json": `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo PROJECT-HOOK-CTX"}]}]}}`})
	model := scripted.Start(t, scripted.Reply{Text: "a"}, scripted.Reply{Text: "b"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}

	out, errOut, code := runExec(t, env, append(common, "hi")...)
	if code != 0 || !strings.Contains(errOut, ".govibe/hooks.json") {
		t.Fatalf("untrusted: exit %d\n%s\n%s", code, out, errOut)
	}
	if u := model.Requests()[0].LastUserMessage(); strings.Contains(u, "PROJECT-HOOK-CTX") {
		t.Fatalf("an untrusted project's hook ran:\n%s", u)
	}
	if out, errOut, code = runExec(t, env, append(common, "--trust", "hi")...); code != 0 {
		t.Fatalf("trusted: exit %d\n%s\n%s", code, out, errOut)
	}
	if u := model.Requests()[1].LastUserMessage(); !strings.Contains(u, "PROJECT-HOOK-CTX") {
		t.Fatalf("a trusted project's hook did not run:\n%s", u)
	}
}
