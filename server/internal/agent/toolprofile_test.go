package agent

import (
	"strings"
	"testing"
)

var allTools = []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "edit", "write_file",
	"run_shell_command", "get_diagnostics", "create_todo_list", "complete_todo_item", "compact", "web_fetch"}

func TestParseToolProfile(t *testing.T) {
	for in, want := range map[string]string{
		"": "full", "full": "full", " READONLY ": "readonly", "no-shell": "no-shell",
		"read_file, grep_search,,read_file": "read_file,grep_search",
		"mcp__git-server__log":              "mcp__git-server__log",
	} {
		p, err := ParseToolProfile(in)
		if err != nil || p.String() != want {
			t.Errorf("ParseToolProfile(%q) = %q, %v; want %q", in, p.String(), err, want)
		}
	}
	for _, bad := range []string{"read file", "edit;rm -rf", "glob,*"} {
		p, err := ParseToolProfile(bad)
		if err == nil || p.Restricted() || !strings.Contains(err.Error(), "readonly") {
			t.Errorf("ParseToolProfile(%q) = %+v, %v: want an error naming the choices and the full profile", bad, p, err)
		}
	}
}

func TestToolProfileAllows(t *testing.T) {
	ro, _ := ParseToolProfile("readonly")
	ns, _ := ParseToolProfile("no-shell")
	ls, _ := ParseToolProfile("read_file,edit")
	cases := []struct {
		p        ToolProfile
		name     string
		readOnly bool
		want     bool
	}{
		{ro, "read_file", true, true}, {ro, "edit", false, false}, {ro, "run_shell_command", false, false}, {ro, "compact", false, true},
		{ns, "run_shell_command", false, false}, {ns, "edit", false, true},
		{ls, "edit", false, true}, {ls, "grep_search", true, false},
		{ToolProfile{}, "run_shell_command", false, true},
	}
	for _, c := range cases {
		if got := c.p.Allows(c.name, c.readOnly); got != c.want {
			t.Errorf("%s.Allows(%s) = %v", c.p, c.name, got)
		}
	}
	if u := ls.Unknown([]string{"read_file"}); len(u) != 1 || u[0] != "edit" {
		t.Errorf("Unknown = %v", u)
	}
}

// TestGuidanceFollowsTheOfferedTools: every tool offered gives the full
// text (the full profile's prompt, unchanged); a restricted set drops the
// rules about tools it lacks; the same set always gives the same bytes.
func TestGuidanceFollowsTheOfferedTools(t *testing.T) {
	h := HostInfo{OS: "linux", Shell: "bash"}
	if SystemPromptFor(h, "en", allTools) != SystemPrompt(h, "en") {
		t.Fatal("offering every tool changed the full prompt")
	}
	readonly := []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "get_diagnostics", "compact", "web_fetch"}
	noShell := []string{"read_file", "find_in_file", "grep_search", "glob", "list_files", "edit", "write_file", "create_todo_list", "compact"}
	list := []string{"read_file", "edit"}
	prompts := map[string]string{}
	for name, offered := range map[string][]string{"readonly": readonly, "no-shell": noShell, "list": list} {
		p := SystemPromptFor(h, "en", offered)
		if p != SystemPromptFor(h, "en", append([]string(nil), offered...)) {
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
