package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecStreamSaysWhyACommandRanUnasked: headless there is no card, so
// the stream-json tool_result is where a reader learns that a command ran
// without anyone being asked, and why (issue 13: every auto-approved
// command says so). A refused command claims nothing.
func TestExecStreamSaysWhyACommandRanUnasked(t *testing.T) {
	ws := gitRepo(t, map[string]string{"run.sh": "#!/bin/sh\necho ran\n", "notes.txt": "x\n"})
	if err := os.Chmod(filepath.Join(ws, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"ls"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c2", "run_shell_command", `{"command":"./run.sh"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c3", "run_shell_command", `{"command":"go test ./..."}`)}},
		scripted.Reply{Text: "done"},
	)
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "scripted",
		"--output", "stream-json", "--set", `permissions.allow=["Bash(./run.sh)"]`}
	out, errOut, code := runExec(t, []string{"HOME=" + t.TempDir()}, append(common, "--approve", "none", "run them")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	auto := map[string]map[string]any{}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) != nil || obj["type"] != "tool_result" {
			continue
		}
		id := obj["id"].(string)
		seen[id] = true
		if a, ok := obj["auto_approved"].(map[string]any); ok {
			auto[id] = a
		}
	}
	if len(seen) != 3 {
		t.Fatalf("want 3 tool results:\n%s", out)
	}
	if a := auto["c1"]; a["by"] != "read-only" || !strings.Contains(a["detail"].(string), "read-only") {
		t.Errorf("ls: auto_approved %v, want by read-only with the reason", a)
	}
	if a := auto["c2"]; a["by"] != "rule" || a["detail"] != "Bash(./run.sh)" {
		t.Errorf("./run.sh: auto_approved %v, want the allow rule", a)
	}
	// go test runs code the analysis cannot see: the sandbox lets it run
	// read-only and offline, and says which setting did.
	if a := auto["c3"]; a["by"] != "setting" || a["detail"] != "govibe.sandbox.autoApprove" {
		t.Errorf("go test: auto_approved %v, want the sandbox's setting", a)
	}
}
