package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// credentialShapes are realistic credentials under names that look like
// nothing (a scrub of bad names and shapes let such ones through): the
// allowlist must keep every one of them from every child.
func credentialShapes(t *testing.T) map[string]string {
	r := randomSecret(t, "")
	return map[string]string{
		"DO_THING":     "dop_v1_" + r + r,
		"PUBLISH":      "pypi-AgEIcHlwaS5vcmc" + r,
		"SHOP":         "shpat_" + r,
		"CHAT_HOOK":    "https://hooks.slack.com/services/T000/B000/" + r,
		"TEAMS":        "https://acme.webhook.office.com/webhookb2/" + r,
		"AGE":          "AGE-SECRET-KEY-1" + strings.ToUpper(r),
		"NEUTRAL":      "glsa_" + r,
		"X_VALUE":      "xapp-1-" + r,
		"LINEAR":       "lin_api_" + r,
		"PLAIN_MARKER": "plain-" + r,
	}
}

// TestExecChildrenGetOnlyTheAllowlist: the sidecar starts with credential
// shapes under neutral names; a sandboxed command, an unsandboxed hook and
// an MCP server each print their environment, and none holds any of them.
func TestExecChildrenGetOnlyTheAllowlist(t *testing.T) {
	shapes := credentialShapes(t)
	ws := mcpProject(t)
	dump := filepath.Join(t.TempDir(), "hook-env.txt")
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"env"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("m1", "mcp__t__dumpenv", `{}`)}},
		scripted.Reply{Text: "done"},
	)
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	for k, v := range shapes {
		env = append(env, k+"="+v)
	}
	hooks := `hooks={"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"env > ` + dump + `"}]}]}`
	out, errOut, code := runExec(t, env, "--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--trust", "--approve", "all", "--set", hooks, "--output", "stream-json", "show the environments")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	hookEnv, err := os.ReadFile(dump)
	if err != nil {
		t.Fatalf("the hook did not run: %v\n%s", err, errOut)
	}
	reqs := model.Requests()
	shell, mcpOut := toolResult(reqs[1], "c1"), toolResult(reqs[2], "m1")
	if !strings.Contains(shell, "PATH=") || !strings.Contains(mcpOut, "PATH=") || !strings.Contains(string(hookEnv), "PATH=") {
		t.Fatalf("an environment was not shown:\nshell %.300s\nmcp %.300s\nhook %.300s", shell, mcpOut, hookEnv)
	}
	for name, v := range shapes {
		for where, text := range map[string]string{"command": shell, "MCP server": mcpOut, "hook": string(hookEnv), "output": out} {
			if strings.Contains(text, v) || strings.Contains(text, name+"=") {
				t.Errorf("%s reached the %s", name, where)
			}
		}
	}
	if !strings.Contains(mcpOut, "GOVIBE_MCP_TEST_SERVER=1") {
		t.Errorf("the MCP server's own configured env is missing: %.500s", mcpOut)
	}
}
