package subagent

import (
	"slices"
	"testing"

	"github.com/govibe/govibe/server/internal/test/corpus"
)

// TestVSCodeToolNamesCorpus: awesome-copilot's agents name VS Code's tool
// sets (`read, edit, search, execute, web, todo`) and "set/tool" names
// (`edit/editFiles`, `runCommands`); they keep edit, web and shell. The
// legacy .github/chatmodes/*.chatmode.md is offered too.
func TestVSCodeToolNamesCorpus(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for dst, src := range map[string]string{
		".github/agents/azure-policy-analyzer.agent.md": "agents/azure-policy-analyzer.agent.md",
		".github/agents/playwright-tester.agent.md":     "agents/playwright-tester.agent.md",
		".github/chatmodes/planner.chatmode.md":         "chatmodes/planner.chatmode.md",
	} {
		files[dst] = corpus.Read(t, "github/awesome-copilot/"+src)
	}
	writeAgents(t, root, files)
	defs, problems := Load(Dirs("", []string{root}, true), knownTool)
	if len(problems) != 0 {
		t.Fatalf("%+v", problems)
	}
	by := map[string][]string{}
	for _, d := range defs {
		by[d.Name] = d.Tools
	}
	for name, want := range map[string][]string{
		"azure-policy-analyzer": {"edit", "write_file", "run_shell_command", "web_fetch", "read_file", "grep_search"},
		"playwright-tester":     {"edit", "write_file", "run_shell_command", "web_fetch", "grep_search"},
		"planner":               {"grep_search", "web_fetch", "read_file"},
	} {
		got, ok := by[name]
		if !ok {
			t.Errorf("%s not loaded (have %v)", name, by)
			continue
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s lost %s: %v", name, w, got)
			}
		}
	}
	if slices.Contains(by["planner"], "edit") {
		t.Errorf("the read-only planner gained edit: %v", by["planner"])
	}
}
