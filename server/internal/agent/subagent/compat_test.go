package subagent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeAgents(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var builtinNames = []string{"read_file", "grep_search", "glob", "list_files", "find_in_file", "edit", "write_file", "run_shell_command", "web_fetch"}

func knownTool(n string) bool { return slices.Contains(builtinNames, n) }

// TestCompatAgents: Claude Code and VS Code agent files load as they are
// in a trusted workspace, their tool names mapped to GoVibe's allow-list;
// a Claude agent without tools inherits all; GoVibe's own folder wins a
// name clash; bad files are problems with a line; untrusted, none load.
func TestCompatAgents(t *testing.T) {
	root := t.TempDir()
	writeAgents(t, root, map[string]string{
		".claude/agents/code-reviewer.md": "---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git diff:*)\nmodel: sonnet\n---\nYou review code.\n",
		".claude/agents/helper.md":        "---\nname: helper\ndescription: Helps with anything\n---\nHelp.\n",
		".claude/agents/bad.md":           "---\nname: bad\ndescription: [oops\n---\nx\n",
		".claude/agents/notools.md":       "---\nname: notools\ndescription: Only foreign tools\ntools: mcp__x__y\n---\nx\n",
		".github/agents/Planner.agent.md": "---\ndescription: Plans work\ntools: ['codebase', 'fetch', 'githubRepo']\nmodel: GPT-4.1\nhandoffs:\n  - label: Implement\n    agent: agent\n---\nPlan only.\n",
		".github/agents/README.md":        "not an agent\n",
		".claude/agents/dup.md":           "---\nname: dup\ndescription: from claude\ntools: Read\n---\nclaude\n",
		".govibe/agents/dup.md":           "---\nname: dup\ndescription: from govibe\ntools: [read_file]\n---\ngovibe\n",
	})
	defs, problems := Load(Dirs("", []string{root}, true), knownTool)
	byName := map[string]Def{}
	for _, d := range defs {
		byName[d.Name] = d
	}
	cr := byName["code-reviewer"]
	if !slices.Equal(cr.Tools, []string{"read_file", "grep_search", "run_shell_command"}) || cr.Model != "sonnet" || cr.Prompt != "You review code." || cr.Format != FormatClaude {
		t.Fatalf("code-reviewer: %+v", cr)
	}
	if h := byName["helper"]; !h.AllTools || len(h.Tools) != 0 {
		t.Fatalf("a Claude agent without tools inherits all: %+v", h)
	}
	pl := byName["planner"]
	if !slices.Equal(pl.Tools, []string{"grep_search", "glob", "list_files", "read_file", "find_in_file", "web_fetch"}) || pl.Description != "Plans work" || pl.Format != FormatVSCode {
		t.Fatalf("planner: %+v", pl)
	}
	if byName["dup"].Prompt != "govibe" {
		t.Fatalf("GoVibe's own definition must win a clash: %+v", byName["dup"])
	}
	if _, ok := byName["readme"]; ok {
		t.Fatal("a .md that is not .agent.md loaded from .github/agents")
	}
	var msgs []string
	for _, p := range problems {
		msgs = append(msgs, p.Error())
	}
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, "bad.md:3:") || !strings.Contains(joined, "notools.md") || len(problems) != 2 {
		t.Fatalf("problems:\n%s", joined)
	}
	if defs, _ := Load(Dirs("", []string{root}, false), knownTool); len(defs) != 0 {
		t.Fatalf("untrusted workspace loaded %+v", defs)
	}
}
