package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/llm/scripted"
)

// TestExecSpeaksTheUsersLanguage: with govibe.language=zh-CN the refusal
// a person reads, the notices and the run's end are Chinese, while the
// model still reads English.
func TestExecSpeaksTheUsersLanguage(t *testing.T) {
	ws := gitRepo(t, map[string]string{"x.txt": "x\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"rm x.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c2", "run_shell_command", `{"command":"ls"}`)}},
	)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", "all",
		"--set", "language=zh-CN", "--set", `permissions.deny=["Bash(rm *)"]`, "--max-turns", "1", "remove x")
	if code != 3 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"未运行:你的权限规则 Bash(rm *) 禁止此操作。", "已在 1 轮工具调用后停止"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not run:") || strings.Contains(out, "Stopped after") {
		t.Errorf("English reached the user:\n%s", out)
	}
	if !strings.Contains(errOut, "运行已达到工具调用轮数上限而停止。") || strings.Contains(errOut, "run ended") {
		t.Errorf("stderr %q", errOut)
	}
	reqs := model.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "tool" || !strings.Contains(last.Content, "not run: denied by your permission rule Bash(rm *)") {
		t.Fatalf("the model did not read the English refusal: %+v", last)
	}
}

// An edit refusal is worded for the user too.
func TestExecEditRefusalInTheUsersLanguage(t *testing.T) {
	ws := gitRepo(t, map[string]string{"x.txt": "x\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "write_file", `{"filePath":"new.txt","content":"hi"}`)}},
		scripted.Reply{Text: "ok"},
	)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", "none",
		"--set", "language=zh-CN", "--output", "stream-json", "write")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `"display":"未应用:本次无界面运行不批准修改(请使用 --approve edits)。"`) {
		t.Fatalf("no localised display on the tool result:\n%s", out)
	}
	if !strings.Contains(out, `"output":"the user rejected the write_file of new.txt`) {
		t.Fatalf("the model's text changed:\n%s", out)
	}
}
