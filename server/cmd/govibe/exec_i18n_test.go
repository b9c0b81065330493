package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
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

// TestExecRefusalsInTheUsersLanguage: every refusal line a person reads
// in a zh-CN run is Chinese (a Read rule, a path outside the workspace,
// an edit before a read, a tool the model may not call, the compact tool
// with nothing to do), while the model's results stay English.
func TestExecRefusalsInTheUsersLanguage(t *testing.T) {
	ws := gitRepo(t, map[string]string{"x.txt": "x\n"})
	if err := os.WriteFile(filepath.Join(ws, ".env"), []byte("K=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := [][2]string{
		{"read_file", `{"filePath":".env"}`},
		{"find_in_file", `{"filePath":".env","searchString":"K"}`},
		{"read_file", `{"filePath":"../outside.txt"}`},
		{"write_file", `{"filePath":"../outside.txt","content":"x"}`},
		{"edit", `{"filePath":"x.txt","startLine":1,"endLine":1,"newContent":"y"}`},
		{"no_such_tool", `{}`},
		{"compact", `{}`},
	}
	var replies []scripted.Reply
	for i, c := range calls {
		replies = append(replies, scripted.Reply{ToolCalls: []scripted.ToolCall{tc(fmt.Sprintf("c%d", i), c[0], c[1])}})
	}
	model := scripted.Start(t, append(replies, scripted.Reply{Text: "好"})...)
	args := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", "all",
		"--set", "language=zh-CN", "--set", `permissions.deny=["Read(.env)"]`}
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}, append(args, "--output", "stream-json", "go")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	results := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) != nil || obj["type"] != "tool_result" {
			continue
		}
		results++
		display, _ := obj["display"].(string)
		output, _ := obj["output"].(string)
		if !hasHan(display) {
			t.Errorf("result %v: display %q is not Chinese (output %q)", obj["id"], display, output)
		}
		if hasHan(output) {
			t.Errorf("result %v: the model read Chinese: %q", obj["id"], output)
		}
	}
	if results != len(calls) {
		t.Fatalf("%d results, want %d\n%s", results, len(calls), out)
	}
}

// TestExecToolErrorsInTheUsersLanguage: tool errors that are not
// refusals — a missing file, a search pattern that does not compile, an
// edit out of range, a missing objective, an argument of the wrong type —
// read Chinese in a zh-CN run, while the model reads English.
func TestExecToolErrorsInTheUsersLanguage(t *testing.T) {
	ws := gitRepo(t, map[string]string{"x.txt": "x\n"})
	calls := [][3]string{
		{"read_file", `{"filePath":"missing.txt"}`, "file not found: missing.txt"},
		{"grep_search", `{"pattern":"a(","isRegex":true}`, "grep_search: invalid regular expression"},
		{"read_file", `{"filePath":"x.txt"}`, ""},
		{"edit", `{"filePath":"x.txt","startLine":5,"endLine":6,"newContent":"y"}`, "edit refused:"},
		{"investigate", `{}`, "investigate: "},
		{"read_file", `{"filePath":5}`, "must be a string"},
	}
	var replies []scripted.Reply
	for i, c := range calls {
		replies = append(replies, scripted.Reply{ToolCalls: []scripted.ToolCall{tc(fmt.Sprintf("c%d", i), c[0], c[1])}})
	}
	model := scripted.Start(t, append(replies, scripted.Reply{Text: "好"})...)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--approve", "all",
		"--set", "language=zh-CN", "--output", "stream-json", "go")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	byID := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) == nil && obj["type"] == "tool_result" {
			byID[fmt.Sprint(obj["id"])] = obj
		}
	}
	for i, c := range calls {
		obj := byID[fmt.Sprintf("c%d", i)]
		if obj == nil {
			t.Fatalf("no result for %s %s\n%s", c[0], c[1], out)
		}
		display, _ := obj["display"].(string)
		output, _ := obj["output"].(string)
		if c[2] == "" {
			if obj["ok"] != true {
				t.Fatalf("%s %s failed: %q", c[0], c[1], output)
			}
			continue
		}
		if obj["ok"] != false || !hasHan(display) {
			t.Errorf("%s %s: ok=%v display %q (output %q)", c[0], c[1], obj["ok"], display, output)
		}
		if hasHan(output) || !strings.Contains(output, c[2]) {
			t.Errorf("%s %s: the model read %q, want English with %q", c[0], c[1], output, c[2])
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestExecHelpInTheUsersLanguage: /help lists the built-in commands with
// descriptions in the user's language.
func TestExecHelpInTheUsersLanguage(t *testing.T) {
	ws := gitRepo(t, map[string]string{"x.txt": "x\n"})
	model := scripted.Start(t)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--set", "language=zh-CN", "/help")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "/") && !hasHan(line) {
			t.Errorf("an English line in a zh-CN /help: %q", line)
		}
	}
}
