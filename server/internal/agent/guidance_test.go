package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

var mainAgent = toolpolicy.Situation{Role: toolpolicy.Main}

var allTools = []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "edit", "write_file",
	"run_shell_command", "get_diagnostics", "create_todo_list", "complete_todo_item", "compact", "web_fetch"}

// offer is the tools called names: the built-in ones, and stand-ins with
// the traits of the plan's and compaction's tools.
func offer(names ...string) []tools.Tool {
	reg := tools.NewRegistry(tools.Builtin()...)
	extra := map[string]tools.Traits{"create_todo_list": tools.Plans, "complete_todo_item": tools.JudgesItems, "compact": tools.Meta}
	var out []tools.Tool
	for _, n := range names {
		if t, ok := reg.Get(n); ok {
			out = append(out, t)
		} else {
			out = append(out, standIn{name: n, traits: extra[n]})
		}
	}
	return out
}

type standIn struct {
	tools.Tool
	name   string
	traits tools.Traits
}

func (s standIn) Name() string            { return s.name }
func (s standIn) Traits() tools.Traits    { return s.traits }
func (s standIn) Schema() json.RawMessage { return json.RawMessage(`{}`) }

// TestGuidanceFollowsTheOfferedTools: every tool offered gives the full
// text (the full profile's prompt, unchanged); a restricted set drops the
// rules about tools it lacks; the same set always gives the same bytes.
func TestGuidanceFollowsTheOfferedTools(t *testing.T) {
	h := HostInfo{OS: "linux", Shell: "bash"}
	if SystemPromptFor(h, "en", mainAgent, offer(allTools...)) != SystemPrompt(h, "en") {
		t.Fatal("offering every tool changed the full prompt")
	}
	readonly := []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "get_diagnostics", "compact", "web_fetch"}
	noShell := []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "edit", "write_file", "create_todo_list", "compact"}
	list := []string{"read_file", "edit"}
	prompts := map[string]string{}
	for name, offered := range map[string][]string{"readonly": readonly, "no-shell": noShell, "list": list} {
		p := SystemPromptFor(h, "en", mainAgent, offer(offered...))
		if p != SystemPromptFor(h, "en", mainAgent, offer(append([]string(nil), offered...)...)) {
			t.Errorf("%s: prompt not byte-stable", name)
		}
		if strings.Contains(p, "run_shell_command") || strings.Contains(p, "Do not use the shell") {
			t.Errorf("%s: prompt mentions the shell it does not offer:\n%s", name, p)
		}
		prompts[name] = p
	}
	if p := prompts["readonly"]; strings.Contains(p, "`edit`") || strings.Contains(p, "create_todo_list") || !strings.Contains(p, "tell the user what to change") || !strings.Contains(p, "`read_file`, `find_in_file`") {
		t.Errorf("readonly prompt:\n%s", p)
	}
	if p := prompts["no-shell"]; !strings.Contains(p, "`edit` and `write_file` to change files.") || !strings.Contains(p, "create_todo_list") {
		t.Errorf("no-shell prompt:\n%s", p)
	}
	if p := prompts["list"]; !strings.Contains(p, "Use the dedicated tools for files: `read_file` to read and search; `edit` to change files.") || strings.Contains(p, "grep_search") {
		t.Errorf("list prompt:\n%s", p)
	}
	if prompts["readonly"] == prompts["no-shell"] || prompts["no-shell"] == prompts["list"] {
		t.Error("different tool sets share a prompt")
	}
}
