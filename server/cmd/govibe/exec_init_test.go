package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecInitWritesAgentsAndMemory: /init on a sample repository with
// the scripted model. The prompt carries the survey (the listing, the
// README, the picked files, best first, vendored code left out); the model
// loads the skill, reads a picked file and writes AGENTS.md and the four
// memory levels through the edit path, which --approve edits is enough for
// headless (the memory is plain text, not protected configuration); the
// next session's first message points at the memory.
func TestExecInitWritesAgentsAndMemory(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# Demo\nA demo tool.\n"})
	writeFiles(t, ws, map[string]string{"go.mod": "module demo\n\ngo 1.22\n" + strings.Repeat("// pad\n", 40),
		"cmd/demo/main.go": "package main\n\nfunc main() {}\n" + strings.Repeat("// pad\n", 40),
		"vendor/x/x.go":    "package x\n" + strings.Repeat("// pad\n", 40),
	})
	write := func(id, path, body string) scripted.ToolCall {
		return scripted.ToolCall{ID: id, Name: "write_file", Arguments: `{"filePath":"` + path + `","content":"` + body + `"}`}
	}
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "s1", Name: "load_skill", Arguments: `{"name":"memory-bootstrap"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"go.mod"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			write("w1", "AGENTS.md", "# Demo\\nBuild: go build ./...\\n"),
			write("w2", ".govibe/memory/README.md", "Rules.\\n"),
			write("w3", ".govibe/memory/L1-purpose.md", "A demo tool.\\n"),
			write("w4", ".govibe/memory/L2-inventory.md", "- cmd/demo/main.go - entry point\\n"),
			write("w5", ".govibe/memory/L3-roles.md", "main starts it.\\n"),
		}},
		scripted.Reply{Text: "Initialised."},
		scripted.Reply{Text: "hi"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text", "--approve", "edits"}
	out, errOut, code := runExec(t, env, append(common, "/init")...)
	if code != 0 {
		t.Fatalf("/init: exit %d\n%s\n%s", code, out, errOut)
	}
	first := model.Requests()[0].LastUserMessage()
	for _, want := range []string{`load_skill("memory-bootstrap")`, "<readme path=\"README.md\">\n# Demo\nA demo tool.", "Read these", "- go.mod (", "- cmd/demo/main.go ("} {
		if !strings.Contains(first, want) {
			t.Fatalf("the /init prompt lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "- vendor/x/x.go") || strings.Index(first, "- go.mod (") > strings.Index(first, "- cmd/demo/main.go (") {
		t.Fatalf("picks out of order or vendored code picked:\n%s", first)
	}
	for _, f := range []string{"AGENTS.md", ".govibe/memory/README.md", ".govibe/memory/L1-purpose.md", ".govibe/memory/L2-inventory.md", ".govibe/memory/L3-roles.md"} {
		if _, err := os.Stat(filepath.Join(ws, f)); err != nil {
			t.Fatalf("/init did not write %s: %v\n%s\n%s", f, err, out, errOut)
		}
	}
	if out, errOut, code = runExec(t, env, append(common, "hello")...); code != 0 {
		t.Fatalf("hello: exit %d\n%s\n%s", code, out, errOut)
	}
	if u := model.Requests()[4].LastUserMessage(); !strings.Contains(u, "Project memory is in .govibe/memory/ (README.md, L1-purpose.md, L2-inventory.md, L3-roles.md)") || !strings.Contains(u, "Build: go build") {
		t.Fatalf("the next session's first message lacks the memory pointer or AGENTS.md:\n%s", u)
	}
}

// TestExecInitWithoutApprovalRefuses: headless /init with --approve none
// (the default) would have every write refused, so it stops before asking
// the model, says which flag to pass, and writes nothing.
func TestExecInitWithoutApprovalRefuses(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# Demo\n"})
	model := scripted.Start(t, scripted.Reply{Text: "should not be asked"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	for _, approve := range [][]string{{"--approve", "none"}, nil} {
		args := append([]string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}, approve...)
		out, errOut, code := runExec(t, env, append(args, "/init")...)
		if code == 0 || !strings.Contains(errOut, "pass --approve edits") {
			t.Fatalf("%v: exit %d, want a failure naming --approve edits\n%s\n%s", approve, code, out, errOut)
		}
	}
	if n := len(model.Requests()); n != 0 {
		t.Fatalf("the model was asked %d times", n)
	}
	for _, f := range []string{"AGENTS.md", ".govibe"} {
		if _, err := os.Stat(filepath.Join(ws, f)); !os.IsNotExist(err) {
			t.Fatalf("%s exists after a refused /init: %v", f, err)
		}
	}
}
