package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	testcorpus "github.com/govibe/govibe/server/internal/test/corpus"
)

// Real hook files from public repositories (testdata/compat, each with a
// .source note naming its repository, path and commit) behave as their
// own tools document.

// corpus is a file of the shared compatibility corpus, with its .source note.
func corpus(t *testing.T, rel string) string { return testcorpus.Path(t, rel) }

func need(t *testing.T, tools ...string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the corpus' hooks are POSIX shell and Python scripts")
	}
	for _, n := range tools {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it)", n)
		}
	}
}

func loadFor(t *testing.T, cfg string, root string) *Runner {
	t.Helper()
	c, problems, _ := Load(json.RawMessage(cfg), nil, true)
	if len(problems) > 0 {
		t.Fatalf("config problems: %v", problems)
	}
	return &Runner{Config: c, Cwd: root, Roots: []string{root}}
}

// Anthropic's examples/hooks/bash_command_validator_example.py, configured
// as its docstring says (matcher Bash), blocks a grep command with exit 2
// and its advice reaches the model; another command passes.
func TestAnthropicBashValidatorBlocksGrep(t *testing.T) {
	need(t, "python3")
	script := corpus(t, "anthropics/claude-code/examples/hooks/bash_command_validator_example.py")
	cfg, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "python3 " + shellQuote(script)}}}}}})
	r := loadFor(t, string(cfg), t.TempDir())
	out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"grep -r TODO src"}`)})
	if !out.Blocked || !strings.Contains(out.Reason, "Use 'rg' (ripgrep) instead of 'grep'") || out.Runs[0].ExitCode != 2 {
		t.Fatalf("grep was not blocked: %+v", out)
	}
	out = r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"rg TODO src"}`)})
	if out.Blocked || len(out.Runs) != 1 || out.Runs[0].Result != "ok" {
		t.Fatalf("rg was blocked or the hook did not run: %+v", out)
	}
	// The matcher is Claude Code's tool name: edits never reach it.
	if out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "write_file", ToolInput: json.RawMessage(`{"filePath":"a","content":"grep"}`)}); len(out.Runs) != 0 {
		t.Fatalf("Bash matched write_file: %+v", out)
	}
}

// The hooks guide's PostToolUse formatter, as written there (matcher
// Edit|Write, `jq -r '.tool_input.file_path' | xargs <formatter>`), with
// gofmt for prettier: after GoVibe's write_file and edit it really
// formats the file.
func TestHooksGuideFormatterFormatsTheFile(t *testing.T) {
	need(t, "jq", "gofmt", "xargs")
	data, err := os.ReadFile(corpus(t, "anthropics/claude-code-docs/hooks-guide/settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(data), "npx prettier --write", "gofmt -w", 1)
	if cfg == string(data) {
		t.Fatal("the guide's formatter command changed; update this test")
	}
	root := t.TempDir()
	r := loadFor(t, cfg, root)
	ugly := "package a\nfunc  F( ) {return}\n"
	want := "package a\n\nfunc F() { return }\n"
	for _, c := range []struct{ tool, args string }{
		{"write_file", `{"filePath":"a.go","content":"x"}`},
		{"edit", `{"filePath":"a.go","startLine":2,"endLine":2,"newContent":"func  F( ) {return}"}`},
	} {
		if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(ugly), 0o644); err != nil {
			t.Fatal(err)
		}
		out := r.Fire(context.Background(), Input{HookEventName: PostToolUse, ToolName: c.tool, ToolInput: json.RawMessage(c.args),
			ToolResponse: json.RawMessage(`{"ok":true}`)})
		if len(out.Runs) != 1 || out.Runs[0].Result != "ok" {
			t.Fatalf("%s: the formatter did not run: %+v", c.tool, out)
		}
		got, _ := os.ReadFile(filepath.Join(root, "a.go"))
		if string(got) != want {
			t.Fatalf("%s: not formatted:\n%s", c.tool, got)
		}
	}
}

// awesome-copilot's tool-guardian, a Copilot hook file (version 1,
// preToolUse, bash, cwd, env, timeoutSec) in .github/hooks, blocks a
// destructive command by exiting 1 and lets a harmless one through.
func TestCopilotToolGuardianBlocks(t *testing.T) {
	need(t, "bash")
	root, home := t.TempDir(), t.TempDir()
	cfg, err := os.ReadFile(corpus(t, "github/awesome-copilot/hooks/tool-guardian/hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(corpus(t, "github/awesome-copilot/hooks/tool-guardian/guard-tool.sh"))
	if err != nil {
		t.Fatal(err)
	}
	// Laid out as its hooks.json expects: the script at
	// hooks/tool-guardian/guard-tool.sh below the hook's cwd ".".
	writeJSON(t, filepath.Join(root, ".github", "hooks", "tool-guardian.json"), string(cfg))
	dst := filepath.Join(root, "hooks", "tool-guardian", "guard-tool.sh")
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, script, 0o755); err != nil {
		t.Fatal(err)
	}
	c, problems, _ := Load(nil, Sources(home, []string{root}), true)
	if len(problems) > 0 || c.Len() != 1 || c.hooks[0].Format != FormatCopilot || c.hooks[0].Env["GUARD_MODE"] != "block" {
		t.Fatalf("loaded %d hooks (%+v), problems %v", c.Len(), c.hooks, problems)
	}
	r := &Runner{Config: c, Cwd: root, Roots: []string{root}}
	out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"git push --force origin main"}`)})
	if !out.Blocked || !strings.Contains(out.Reason, "Tool Guardian") {
		t.Fatalf("force push was not blocked: %+v", out)
	}
	out = r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"go test ./..."}`)})
	if out.Blocked || len(out.Runs) != 1 || out.Runs[0].Result != "ok" {
		t.Fatalf("a harmless command: %+v", out)
	}
	log, _ := os.ReadFile(filepath.Join(root, ".github", "logs", "copilot", "tool-guardian", "guard.log"))
	if !strings.Contains(string(log), `"tool":"bash"`) {
		t.Fatalf("the hook did not see Copilot's tool name bash: %s", log)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
