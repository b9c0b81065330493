package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func runGovibe(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(govibeBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// userConfig writes a headless user settings file and returns the env that
// points at it.
func userConfig(t *testing.T, content string) []string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "govibe"), 0o755)
	if content != "" {
		os.WriteFile(filepath.Join(dir, "govibe", "settings.json"), []byte(content), 0o600)
	}
	return []string{"XDG_CONFIG_HOME=" + dir, "HOME=" + t.TempDir(), "GOVIBE_BASE_URL=", "GOVIBE_MODEL=", "LANG=C"}
}

// Issue 16.8: --set permissions.workspace.deny is a known setting; it must
// not be called "ignored", and the rule it sets is applied.
func TestExecWorkspaceDenyFlagIsKnownAndApplied(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"touch denied.txt"}`)}},
		scripted.Reply{Text: "ok"},
	)
	env := append(userConfig(t, ""), "GOVIBE_API_KEY=sk-test-abcdefgh12345678")
	out, errOut, code := runExec(t, env,
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", "all",
		"--set", `permissions.workspace.deny=["Bash(touch *)"]`, "--set", "alsoNotASetting=1", "--output", "json", "touch it")
	if strings.Contains(errOut, "permissions.workspace.deny") {
		t.Fatalf("a known setting was reported: %q", errOut)
	}
	if !strings.Contains(errOut, `unknown setting "alsoNotASetting"`) {
		t.Fatalf("the really unknown key was not named: %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "denied.txt")); err == nil {
		t.Fatalf("the deny rule was not applied (exit %d)\n%s\n%s", code, out, errOut)
	}
	if got := lastToolContent(model); !strings.Contains(got, "Bash(touch *)") {
		t.Fatalf("the model was not told which rule denied it: %q", got)
	}
}

func lastToolContent(model *scripted.Server) string {
	reqs := model.Requests()
	if len(reqs) == 0 {
		return ""
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "tool" {
			return msgs[i].Content
		}
	}
	return ""
}

// A --set value that does not fit the schema is a usage error naming the
// key, before anything runs.
func TestExecSetValueIsValidated(t *testing.T) {
	for _, set := range []string{"maxInteractions=ten", "compact.threshold=3", "language=fr", "permissions.deny=Bash(rm *)"} {
		_, errOut, code := runExec(t, userConfig(t, ""), "--set", set, "hello")
		key, _, _ := strings.Cut(set, "=")
		if code != 2 || !strings.Contains(errOut, "setting "+key) {
			t.Errorf("--set %s: exit %d, stderr %q", set, code, errOut)
		}
	}
}

func TestConfigShowsValuesAndSources(t *testing.T) {
	env := append(userConfig(t, `{"compact": {"threshold": 0.6}, "autoApprove.editsDelay": 3, "bogus": 1, "apiKey": "sk-plain-secret-123456"}`),
		"GOVIBE_MODEL=env-model", "GOVIBE_API_KEY=sk-env-secret-7890")
	out, errOut, code := runGovibe(t, env, "config", "--json", "--set", "maxInteractions=4", "--set", `permissions.workspace.deny=["Bash(rm *)"]`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out+errOut, "sk-plain-secret") || strings.Contains(out+errOut, "sk-env-secret") {
		t.Fatalf("a secret was printed:\n%s\n%s", out, errOut)
	}
	var got map[string]struct {
		Value  any    `json:"value"`
		Source string `json:"source"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	check := func(key string, value any, source string) {
		t.Helper()
		e, ok := got[key]
		if !ok {
			t.Errorf("%s missing", key)
			return
		}
		vb, _ := json.Marshal(e.Value)
		wb, _ := json.Marshal(value)
		if string(vb) != string(wb) || !strings.Contains(e.Source, source) {
			t.Errorf("%s = %s from %q; want %s from %q", key, vb, e.Source, wb, source)
		}
	}
	check("compact.threshold", 0.6, "user file")
	check("model", "env-model", "environment")
	check("maxInteractions", 4, "flags")
	check("permissions.workspace.deny", []string{"Bash(rm *)"}, "flags")
	check("language", "auto", "default")
	check("todolistReview.enabled", false, "default")
	check("autoApprove.editsDelayMs", 3000, "user file")
	check("apiKey", "set", "GOVIBE_API_KEY")
	if _, ok := got["govibe.model"]; ok {
		t.Error("keys carry no govibe. prefix")
	}
	if len(got) < 45 {
		t.Errorf("every setting is listed; got %d", len(got))
	}
	for _, want := range []string{`unknown setting "bogus" in user file`, `"autoApprove.editsDelay" is now "autoApprove.editsDelayMs"`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}

	text, _, code := runGovibe(t, env, "config")
	if code != 0 || !strings.Contains(text, "environment\tmodel=env-model\n") || !strings.Contains(text, "default\tlanguage=auto\n") {
		t.Fatalf("text listing:\n%s", text)
	}
}

func TestConfigBadInput(t *testing.T) {
	_, errOut, code := runGovibe(t, userConfig(t, `{"model": `), "config")
	if code != 2 || !strings.Contains(errOut, "settings.json") || !strings.Contains(errOut, "invalid JSON") {
		t.Fatalf("a malformed user file: exit %d %q", code, errOut)
	}
	_, errOut, code = runGovibe(t, userConfig(t, ""), "config", "extra")
	if code != 2 || !strings.Contains(errOut, "unexpected argument") {
		t.Fatalf("exit %d %q", code, errOut)
	}
	_, errOut, code = runGovibe(t, userConfig(t, ""), "config", "--set", "noequals")
	if code != 2 || !strings.Contains(errOut, "KEY=VALUE") {
		t.Fatalf("exit %d %q", code, errOut)
	}
}
