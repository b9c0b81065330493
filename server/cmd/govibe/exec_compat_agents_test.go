package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecCompatAgents: a Claude Code agent (.claude/agents) and a VS Code
// one (.github/agents/*.agent.md) are offered as agent_<name> tools in a
// trusted workspace, and a call runs the agent with its instructions and
// only its mapped tools; untrusted, neither is offered.
func TestExecCompatAgents(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
	writeFiles(t, ws, map[string]string{
		".claude/agents/reviewer.md":      "---\nname: reviewer\ndescription: Reviews the diff\ntools: Read, Grep\n---\nREVIEWER-INSTRUCTIONS\n",
		".github/agents/planner.agent.md": "---\ndescription: Plans the work\ntools: ['codebase']\n---\nPLANNER-INSTRUCTIONS\n",
	})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "a1", Name: "agent_reviewer", Arguments: `{"objective":"review README.md"}`}}},
		scripted.Reply{Text: "Looks fine."},
		scripted.Reply{Text: "The reviewer says it looks fine."},
		scripted.Reply{Text: "untrusted"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text"}
	out, errOut, code := runExec(t, env, append(common, "--trust", "ask the reviewer")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := model.Requests()
	if names := toolNamesOf(reqs[0].Tools); !slices.Contains(names, "agent_reviewer") || !slices.Contains(names, "agent_planner") {
		t.Fatalf("the compat agents are not offered: %v", names)
	}
	child := reqs[1]
	if child.Messages[0].Content != "REVIEWER-INSTRUCTIONS" || !slices.Equal(slices.Sorted(slices.Values(toolNamesOf(child.Tools))), []string{"grep_search", "read_file"}) {
		t.Fatalf("the reviewer ran with %q and tools %v", child.Messages[0].Content, toolNamesOf(child.Tools))
	}
	if !strings.Contains(out, "looks fine") {
		t.Fatalf("output: %s", out)
	}
	if out, errOut, code = runExec(t, env, append(common, "hello")...); code != 0 {
		t.Fatalf("untrusted: exit %d\n%s\n%s", code, out, errOut)
	}
	if names := toolNamesOf(model.Requests()[3].Tools); slices.Contains(names, "agent_reviewer") || slices.Contains(names, "agent_planner") {
		t.Fatalf("untrusted workspace offered %v", names)
	}
}
