package toolpolicy

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestParseProfile (moved from package agent, assertions unchanged).
func TestParseProfile(t *testing.T) {
	for in, want := range map[string]string{
		"": "full", "full": "full", " READONLY ": "readonly", "no-shell": "no-shell",
		"read_file, grep_search,,read_file": "read_file,grep_search",
		"mcp__git-server__log":              "mcp__git-server__log",
	} {
		p, err := ParseProfile(in)
		if err != nil || p.String() != want {
			t.Errorf("ParseProfile(%q) = %q, %v; want %q", in, p.String(), err, want)
		}
	}
	for _, bad := range []string{"read file", "edit;rm -rf", "glob,*"} {
		p, err := ParseProfile(bad)
		if err == nil || p.Restricted() || !strings.Contains(err.Error(), "readonly") {
			t.Errorf("ParseProfile(%q) = %+v, %v: want an error naming the choices and the full profile", bad, p, err)
		}
	}
}

// TestProfileAllows (moved from package agent): the same cases, with
// each tool's traits where the test gave whether it was read-only.
func TestProfileAllows(t *testing.T) {
	ro, _ := ParseProfile("readonly")
	ns, _ := ParseProfile("no-shell")
	ls, _ := ParseProfile("read_file,edit")
	cases := []struct {
		p    Profile
		name string
		t    tools.Traits
		want bool
	}{
		{ro, "read_file", tools.Reads, true}, {ro, "edit", tools.WritesWorkspace, false}, {ro, "run_shell_command", tools.RunsCommands, false}, {ro, "compact", tools.Meta, true},
		{ns, "run_shell_command", tools.RunsCommands, false}, {ns, "edit", tools.WritesWorkspace, true},
		{ls, "edit", tools.WritesWorkspace, true}, {ls, "grep_search", tools.Searches, false},
		{Profile{}, "run_shell_command", tools.RunsCommands, true},
	}
	for _, c := range cases {
		if got := c.p.Allows(c.name, c.t); got != c.want {
			t.Errorf("%s.Allows(%s) = %v", c.p, c.name, got)
		}
	}
	if u := ls.Unknown([]string{"read_file"}); len(u) != 1 || u[0] != "edit" {
		t.Errorf("Unknown = %v", u)
	}
}

// TestProfileListNamingNoToolIsIgnored: a list that names none of the
// tools would leave the model with none; it offers every tool instead.
func TestProfileListNamingNoToolIsIgnored(t *testing.T) {
	p, _ := ParseProfile("red_file, grep")
	ts := everyTool()
	if d := Decide(Situation{Role: Main, Profile: p}, ts); len(d.Blocked) != 1 { // complete_todo_item: the role's
		t.Errorf("blocked %v", d.Blocked)
	}
}

// TestReportToolsSurviveProfilesAndCommands: a phase's report tools are
// how it ends; a readonly profile or a command's list never takes them.
func TestReportToolsSurviveProfilesAndCommands(t *testing.T) {
	ro, _ := ParseProfile("readonly")
	ts := pick("read_file", "edit", "report_findings")
	d := Decide(Situation{Role: Main, Profile: ro, Command: func(n string) bool { return n == "read_file" }}, ts)
	if got := strings.Join(offeredNames(d, ts), ","); got != "read_file,report_findings" {
		t.Errorf("offered %s", got)
	}
}
