package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeJSON(t *testing.T, path, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runner(t *testing.T, cfg string) (*Runner, string) {
	dir := t.TempDir()
	c, problems, _ := Load(json.RawMessage(cfg), nil, true)
	if len(problems) > 0 {
		t.Fatalf("config problems: %v", problems)
	}
	return &Runner{Config: c, Cwd: dir}, dir
}

func TestBlockWithExit2(t *testing.T) {
	r, _ := runner(t, `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo 'no rm -rf here' >&2; exit 2"}]}]}`)
	out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"rm -rf /"}`)})
	if !out.Blocked || out.Reason != "no rm -rf here" || out.Runs[0].Result != "blocked" {
		t.Fatalf("%+v", out)
	}
	// The matcher is by tool: edit is not Bash.
	if out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "edit"}); out.Blocked || len(out.Runs) != 0 {
		t.Fatalf("matcher ignored: %+v", out)
	}
}

func TestModifyInputAndAddContext(t *testing.T) {
	r, dir := runner(t, `{"hooks":{"PreToolUse":[{"matcher":"run_shell_command","hooks":[
		{"command":"cat > seen.json; echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"echo safe\"},\"additionalContext\":\"policy: safe mode\"}}'"},
		{"command":"cat > seen2.json"}]}],
	  "UserPromptSubmit":[{"hooks":[{"command":"echo 'Sprint ends Friday.'"}]}]}}`)
	out := r.Fire(context.Background(), Input{SessionID: "s1", HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"make deploy"}`)})
	if out.Blocked || string(out.UpdatedInput) != `{"command":"echo safe"}` || out.AdditionalContext != "policy: safe mode" {
		t.Fatalf("%+v", out)
	}
	var seen Input
	data, _ := os.ReadFile(filepath.Join(dir, "seen.json"))
	if err := json.Unmarshal(data, &seen); err != nil || seen.SessionID != "s1" || seen.HookEventName != PreToolUse || !strings.Contains(string(seen.ToolInput), "make deploy") {
		t.Fatalf("stdin JSON: %s %v", data, err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "seen2.json"))
	if !strings.Contains(string(data), "echo safe") {
		t.Fatalf("the next hook must see the changed input: %s", data)
	}
	out = r.Fire(context.Background(), Input{HookEventName: UserPromptSubmit, Prompt: "hi"})
	if out.AdditionalContext != "Sprint ends Friday." {
		t.Fatalf("plain stdout as context: %+v", out)
	}
}

func TestTimeoutAndFailuresDoNotBlock(t *testing.T) {
	r, _ := runner(t, `{"Stop":[{"hooks":[{"command":"sleep 30","timeout":0.3},{"command":"exit 7"},{"command":"echo '{not json'"},
		{"command":"echo '{\"hookSpecificOutput\":{\"updatedInput\":[1]}}'"}]}]}`)
	start := time.Now()
	out := r.Fire(context.Background(), Input{HookEventName: Stop})
	if out.Blocked || len(out.Runs) != 4 {
		t.Fatalf("%+v", out)
	}
	want := []string{"timeout", "failed", "failed", "ok"}
	for i, w := range want {
		if out.Runs[i].Result != w {
			t.Errorf("run %d: %s (%s), want %s", i, out.Runs[i].Result, out.Runs[i].Note, w)
		}
	}
	if !strings.Contains(out.Runs[2].Note, "malformed JSON") {
		t.Errorf("malformed reply note: %q", out.Runs[2].Note)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("the timeout did not stop the hook")
	}
}

func TestJSONDecisionBlocks(t *testing.T) {
	r, _ := runner(t, `{"PreToolUse":[{"matcher":"Edit|Write","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"generated file\"}}'"}]}]}`)
	out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "write_file"})
	if !out.Blocked || out.Reason != "generated file" {
		t.Fatalf("%+v", out)
	}
}

func TestLoadSourcesAndTrust(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	writeJSON(t, filepath.Join(home, ".govibe", "hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"command":"true"}]}]}}`)
	writeJSON(t, filepath.Join(root, ".govibe", "hooks.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"command":"true"}]}]}}`)
	writeJSON(t, filepath.Join(root, ".github", "hooks", "ci.json"), `{"PostToolUse":[{"hooks":[{"command":"true"}]}]}`)
	writeJSON(t, filepath.Join(root, ".claude", "settings.json"), `{"permissions":{},"hooks":{"SessionStart":[{"hooks":[{"command":"true"}]}]}}`)
	writeJSON(t, filepath.Join(root, ".claude", "settings.local.json"), `{"model":"x"}`)

	c, problems, skipped := Load(nil, Sources(home, []string{root}), false)
	if c.Len() != 1 || len(problems) != 0 || len(skipped) != 3 {
		t.Fatalf("untrusted: %d hooks, problems %v, skipped %v", c.Len(), problems, skipped)
	}
	c, problems, skipped = Load(nil, Sources(home, []string{root}), true)
	if c.Len() != 4 || len(problems) != 0 || len(skipped) != 0 {
		t.Fatalf("trusted: %d hooks, problems %v, skipped %v", c.Len(), problems, skipped)
	}
	_, problems, _ = Load(json.RawMessage(`{"PreToolUs":[],"Stop":[{"matcher":"(","hooks":[{"command":"x"}]},{"hooks":[{"type":"prompt","command":"x"},{"command":" "}]}]}`), nil, true)
	if len(problems) != 1 {
		t.Fatalf("problems: %v", problems)
	}
	for _, want := range []string{`unknown hook event "PreToolUs"`, "invalid matcher", `type "prompt"`, "no command"} {
		if !strings.Contains(problems[0].Message, want) {
			t.Errorf("missing %q in %s", want, problems[0].Message)
		}
	}
}

// A hook without a timeout gets the 60 s default; one in seconds is
// honoured; a negative one is a reported problem, not the default.
func TestHookTimeouts(t *testing.T) {
	c, problems, _ := Load(json.RawMessage(`{"Stop":[{"hooks":[{"command":"a"},{"command":"b","timeout":1.5},{"command":"c","timeout":-5}]}]}`), nil, true)
	hs := c.For(Stop, "")
	if len(hs) != 2 || hs[0].Timeout != DefaultTimeout || DefaultTimeout != 60*time.Second || hs[1].Timeout != 1500*time.Millisecond {
		t.Fatalf("timeouts: %+v", hs)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Message, "timeout -5 is negative") {
		t.Fatalf("problems: %v", problems)
	}
}
