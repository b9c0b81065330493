package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

var govibeBin string

func TestMain(m *testing.M) {
	if os.Getenv("GOVIBE_MCP_TEST_SERVER") == "1" {
		serveTestMCP() // the test binary doubles as an MCP stdio server
		return
	}
	dir, err := os.MkdirTemp("", "govibe-exec-test")
	if err != nil {
		panic(err)
	}
	govibeBin = filepath.Join(dir, "govibe")
	build := exec.Command("go", "build", "-o", govibeBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func runExec(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(govibeBin, append([]string{"exec"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// goCaches names the runner's Go build and module caches, so a go command
// the agent runs under a test's fresh HOME reuses them.
func goCaches(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 3 {
		t.Fatalf("go env printed %q", out)
	}
	return []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2]}
}

func tc(id, name, args string) scripted.ToolCall {
	return scripted.ToolCall{ID: id, Name: name, Arguments: args}
}

// TestExecFixesFailingGoTest is the headless end-to-end run: the model
// reads the code, edits it, runs go test, and the run ends done with the
// test passing and a stream-json transcript matching the schema.
func TestExecFixesFailingGoTest(t *testing.T) {
	ws := gitRepo(t, map[string]string{
		"go.mod":       "module calc\n\ngo 1.22\n",
		"calc.go":      "package calc\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a - b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"Add(2, 3) != 5\")\n\t}\n}\n",
	})
	model := scripted.Start(t,
		scripted.Reply{Text: "Let me look.", ToolCalls: []scripted.ToolCall{tc("c1", "read_file", `{"filePath":"calc.go"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c2", "edit", `{"filePath":"calc.go","startLine":4,"endLine":4,"newContent":"func Add(a, b int) int { return a + b }"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c3", "run_shell_command", `{"command":"go test ./..."}`)}},
		scripted.Reply{Text: "Fixed: `Add` now adds.", Usage: &scripted.Usage{PromptTokens: 500, CompletionTokens: 20, CachedTokens: 300}},
	)
	state := t.TempDir()
	// The agent's go test runs with a fresh HOME: without the runner's
	// build cache it would compile the standard library first, which on a
	// loaded machine outlasted the shell tool's 2-minute default.
	env := append([]string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "GOFLAGS=-mod=mod"}, goCaches(t)...)
	out, errOut, code := runExec(t, env,
		"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "scripted",
		"--approve", "all", "--output", "stream-json", "fix the failing test")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if v := model.Violations(); len(v) > 0 {
		t.Fatalf("tool-call invariant violated: %v", v)
	}
	got, _ := os.ReadFile(filepath.Join(ws, "calc.go"))
	if !strings.Contains(string(got), "return a + b") {
		t.Fatalf("calc.go not fixed:\n%s", got)
	}
	test := exec.Command("go", "test", "./...")
	test.Dir = ws
	if o, err := test.CombinedOutput(); err != nil {
		t.Fatalf("go test still fails: %v\n%s", err, o)
	}

	// The transcript: one JSON object per line, known types, init first,
	// result last, every tool_call answered by a tool_result.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	required := map[string][]string{
		"init": {"session_id", "model", "tools"}, "text": {"delta"}, "reasoning": {"delta"},
		"tool_call": {"id", "name", "arguments"}, "tool_result": {"id", "ok", "output"},
		"error": {"message"}, "notice": {"message"}, "result": {"status", "usage", "session_usage"}, "usage": {"usage"},
	}
	calls, results := map[string]bool{}, map[string]bool{}
	for i, line := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not JSON: %q", i+1, line)
		}
		typ, _ := obj["type"].(string)
		keys, ok := required[typ]
		if !ok {
			t.Fatalf("line %d: unknown type %q", i+1, typ)
		}
		for _, k := range keys {
			if _, ok := obj[k]; !ok {
				t.Fatalf("line %d (%s) lacks %q: %s", i+1, typ, k, line)
			}
		}
		switch {
		case i == 0 && typ != "init":
			t.Fatalf("first line must be init: %s", line)
		case i == len(lines)-1 && typ != "result":
			t.Fatalf("last line must be result: %s", line)
		}
		switch typ {
		case "tool_call":
			calls[obj["id"].(string)] = true
		case "tool_result":
			results[obj["id"].(string)] = true
			if obj["ok"] != true {
				t.Fatalf("tool failed: %s", line)
			}
		case "result":
			if obj["status"] != "done" {
				t.Fatalf("status: %s", line)
			}
			usage := obj["usage"].(map[string]any)
			for _, k := range []string{"prompt_tokens", "completion_tokens", "cached_tokens"} {
				if _, ok := usage[k]; !ok {
					t.Fatalf("usage lacks %s", k)
				}
			}
		}
	}
	if len(calls) != 3 || len(results) != 3 {
		t.Fatalf("want 3 tool calls and results, got %v / %v", calls, results)
	}
}

func TestExecUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no prompt", nil, "PROMPT is required"},
		{"bad approve", []string{"--approve", "maybe", "x"}, "--approve must be"},
		{"bad output", []string{"--output", "xml", "x"}, "--output must be"},
		{"bad mode", []string{"--mode", "yolo", "x"}, "unknown mode \"yolo\""},
		{"bad workspace", []string{"--workspace", "/no/such/dir", "x"}, "not a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runExec(t, nil, tt.args...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
}

func TestExecUnknownSetWarnsAndMaxTurns(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "hello\n"})
	loop := scripted.Reply{ToolCalls: []scripted.ToolCall{tc("", "list_files", `{}`)}}
	model := scripted.Start(t, loop, loop, loop, loop)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--set", "noSuchSetting=1", "--max-turns", "2", "--output", "json", "list files forever")
	if !strings.Contains(errOut, `unknown setting "noSuchSetting"`) {
		t.Fatalf("stderr lacks the warning: %q", errOut)
	}
	if code != 3 {
		t.Fatalf("exit %d, want 3 (max turns)\n%s\n%s", code, out, errOut)
	}
	var res map[string]any
	if err := json.NewDecoder(bufio.NewReader(strings.NewReader(out))).Decode(&res); err != nil || res["status"] != "max_turns" {
		t.Fatalf("json output %q (%v)", out, err)
	}
}

func TestExecMissingKeyIsAClearError(t *testing.T) {
	// Loopback servers (Ollama, LM Studio) need no key; a remote one does,
	// and the run must fail before any request is sent.
	ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
	_, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", "https://api.example.invalid/v1", "--model", "m", "hi")
	if code != 1 || !strings.Contains(strings.ToLower(errOut), "api key") {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
}

// --mode plan runs the prompt with Plan mode's read-only whitelist: a
// write the model calls anyway is refused and the file never appears.
func TestExecModePlanIsReadOnly(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "hello\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("w1", "write_file", `{"path":"b.txt","content":"x"}`)}},
		scripted.Reply{Text: "I only read."})
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--approve", "all", "--mode", "plan", "write b.txt")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "b.txt")); !os.IsNotExist(err) {
		t.Fatal("plan mode let a write through")
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, tool := range reqs[0].Tools {
		if tool.Name == "write_file" || tool.Name == "run_shell_command" {
			t.Fatalf("plan mode offered %s", tool.Name)
		}
	}
}
