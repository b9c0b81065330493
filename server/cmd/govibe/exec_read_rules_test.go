package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

type step struct {
	name, args string
	ok         bool
	has, lacks []string
}

// runSteps makes the model call each step's tool in turn, then checks
// every tool result from the stream-json transcript.
func runSteps(t *testing.T, ws string, extra []string, steps []step) (stderr string) {
	t.Helper()
	var replies []scripted.Reply
	for i, s := range steps {
		replies = append(replies, scripted.Reply{ToolCalls: []scripted.ToolCall{tc(fmt.Sprintf("s%d", i), s.name, s.args)}})
	}
	replies = append(replies, scripted.Reply{Text: "done"})
	model := scripted.Start(t, replies...)
	args := append([]string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--approve", "all", "--output", "stream-json"}, extra...)
	out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}, append(args, "read things")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	results := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) == nil && obj["type"] == "tool_result" {
			results[obj["id"].(string)] = obj
		}
	}
	for i, s := range steps {
		r := results[fmt.Sprintf("s%d", i)]
		if r == nil {
			t.Errorf("%s %s: no result", s.name, s.args)
			continue
		}
		output, _ := r["output"].(string)
		if r["ok"] != s.ok {
			t.Errorf("%s %s: ok=%v, want %v: %s", s.name, s.args, r["ok"], s.ok, output)
		}
		for _, h := range s.has {
			if !strings.Contains(output, h) {
				t.Errorf("%s %s: output lacks %q: %s", s.name, s.args, h, output)
			}
		}
		for _, l := range s.lacks {
			if strings.Contains(output, l) {
				t.Errorf("%s %s: output has %q: %s", s.name, s.args, l, output)
			}
		}
	}
	return errOut
}

func readRulesRepo(t *testing.T) string {
	ws := gitRepo(t, map[string]string{"t.txt": "hello SECRET_NAME\n", "README.md": "readme\n"})
	if err := os.MkdirAll(filepath.Join(ws, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "config", "prod.txt"), []byte("SECRET_NAME=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".env"), []byte("SECRET_NAME=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestExecReadRuleProtectsDotEnv: Read(.env) (and Read(config/**), for a
// file the searches do not skip as hidden) keeps the content from
// every tool that reads, lists or searches, and from shell commands that
// read it; other files stay readable.
func TestExecReadRuleProtectsDotEnv(t *testing.T) {
	ws := readRulesRepo(t)
	secret := "hunter2"
	runSteps(t, ws, []string{"--set", `permissions.deny=["Read(.env)","Read(config/**)"]`}, []step{
		{name: "read_file", args: `{"filePath":".env"}`, ok: false, has: []string{"Read(.env)"}, lacks: []string{secret}},
		{name: "find_in_file", args: `{"filePath":".env","searchString":"SECRET"}`, ok: false, has: []string{"Read(.env)"}, lacks: []string{secret}},
		{name: "get_file_info", args: `{"filePath":".env"}`, ok: false, has: []string{"Read(.env)"}},
		{name: "grep_search", args: `{"pattern":"SECRET_NAME"}`, ok: true, has: []string{"t.txt", "1 file(s) with matches withheld"}, lacks: []string{secret, "prod.txt"}},
		{name: "grep_search", args: `{"pattern":"SECRET_NAME","path":"config"}`, ok: false, has: []string{"Read(config/**)"}},
		{name: "list_files", args: `{"path":"config"}`, ok: false, has: []string{"Read(config/**)"}},
		{name: "list_files", args: `{}`, ok: true, has: []string{"t.txt", "withheld"}, lacks: []string{".env"}},
		{name: "glob", args: `{"pattern":"*"}`, ok: true, has: []string{"t.txt", "withheld"}, lacks: []string{".env"}},
		{name: "run_shell_command", args: `{"command":"cat .env"}`, ok: false, has: []string{"Read(.env)"}, lacks: []string{secret}},
		{name: "run_shell_command", args: `{"command":"grep -r SECRET_NAME ."}`, ok: false, has: []string{"Read(.env)"}, lacks: []string{secret}},
		{name: "run_shell_command", args: `{"command":"wc -c < .env"}`, ok: false, has: []string{"Read(.env)"}},
		{name: "run_shell_command", args: `{"command":"head config/prod.txt"}`, ok: false, has: []string{"Read(config/**)"}, lacks: []string{secret}},
		{name: "run_shell_command", args: `{"command":"cat t.txt"}`, ok: true, has: []string{"hello"}},
		{name: "read_file", args: `{"filePath":"t.txt"}`, ok: true, has: []string{"hello"}},
	})
}

// TestExecReadRulesDenyEverything is the audit's reproduction:
// Read(t.txt) and Read(**) stop read_file, grep_search and cat.
func TestExecReadRulesDenyEverything(t *testing.T) {
	ws := readRulesRepo(t)
	runSteps(t, ws, []string{"--set", `permissions.deny=["Read(t.txt)","Read(**)"]`}, []step{
		{name: "read_file", args: `{"filePath":"t.txt"}`, ok: false, has: []string{"Read(t.txt)"}, lacks: []string{"hello"}},
		{name: "grep_search", args: `{"pattern":"hello"}`, ok: true, has: []string{"No matches", "withheld"}, lacks: []string{"t.txt:1"}},
		{name: "run_shell_command", args: `{"command":"cat t.txt"}`, ok: false, has: []string{"Read(t.txt)"}, lacks: []string{"hello"}},
		{name: "list_files", args: `{}`, ok: false, has: []string{"Read(**)"}},
	})
}

// TestExecInvalidRuleIsReportedNotAskedFor: a malformed rule is named
// (setting and entry) on stderr, and the other rules keep working instead
// of every command needing a human.
func TestExecInvalidRuleIsReportedNotAskedFor(t *testing.T) {
	ws := readRulesRepo(t)
	errOut := runSteps(t, ws, []string{"--set", `permissions.deny=["Bash(", "Bash(rm *)"]`}, []step{
		{name: "run_shell_command", args: `{"command":"touch made.txt"}`, ok: true},
		{name: "run_shell_command", args: `{"command":"rm made.txt"}`, ok: false, has: []string{"Bash(rm *)"}},
	})
	if !strings.Contains(errOut, `govibe.permissions.deny entry 1 ("Bash(") in the --set flags`) {
		t.Fatalf("stderr does not locate the invalid rule: %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err != nil {
		t.Fatal("touch did not run")
	}
}

// TestExecReadRulesSeeImpliedReads: shell commands that read a protected
// file without naming it as an operand are refused too: a search with no
// path, REV:path, $PWD, inline interpreter code, xargs fed from the line,
// and git printing a tracked file whole. git's
// whole-repository reads stay allowed while the protected file is one
// git does not know.
func TestExecReadRulesSeeImpliedReads(t *testing.T) {
	ws := gitRepo(t, map[string]string{".env": "SECRET_NAME=hunter2\n", "t.txt": "hello SECRET_NAME\n", "prod.key": "hunter3\n", ".gitignore": "*.key\n"})
	if err := os.WriteFile(filepath.Join(ws, ".env"), []byte("SECRET_NAME=hunter4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "t.txt"), []byte("hello again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh := func(cmd string, ok bool, has ...string) step {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		s := step{name: "run_shell_command", args: string(b), ok: ok, has: has}
		if !ok {
			s.lacks = []string{"hunter"}
		}
		return s
	}
	runSteps(t, ws, []string{"--set", `permissions.deny=["Read(.env)"]`}, []step{
		sh("rg -uu SECRET_NAME", false, "Read(.env)"),
		sh("grep -rn SECRET_NAME", false, "Read(.env)"),
		sh("git show HEAD:.env", false, "Read(.env)"),
		sh("git diff", false, "Read(.env)"),
		sh("git log -p", false, "Read(.env)"),
		sh("cat $PWD/.env", false, "Read(.env)"),
		sh(`python3 -c 'print(open(".env").read())'`, false, "Read(.env)"),
		sh("xargs cat <<< .env", false, "Read(.env)"),
		sh("git diff -- t.txt", true, "hello again"),
		sh("git log --oneline", true, "init"),
	})
	// prod.key is ignored: git never prints it, so git diff runs; the
	// sandbox masks .env whatever the rules say, so its new value stays
	// out of the diff (git sees an emptied file, which it can still hash).
	runSteps(t, ws, []string{"--set", `permissions.deny=["Read(*.key)"]`}, []step{
		sh("git diff", true, "hello again"),
		sh("rg hunter3", false, "Read(*.key)"),
	})
}

// TestExecInvalidWorkspaceRuleIsReportedWhereWritten: a rule of the
// workspace lists given with --set is named by its own key and place, and
// the valid rule beside it still applies.
func TestExecInvalidWorkspaceRuleIsReportedWhereWritten(t *testing.T) {
	ws := readRulesRepo(t)
	errOut := runSteps(t, ws, []string{"--set", `permissions.workspace.deny=["Bash(rm *)","Read("]`}, []step{
		{name: "run_shell_command", args: `{"command":"rm t.txt"}`, ok: false, has: []string{"Bash(rm *)"}},
	})
	if !strings.Contains(errOut, `govibe.permissions.workspace.deny entry 2 ("Read(") in the --set flags`) {
		t.Fatalf("stderr does not locate the invalid rule: %q", errOut)
	}
	if strings.Contains(errOut, "unknown setting") {
		t.Fatalf("a known key was called unknown: %q", errOut)
	}
}
