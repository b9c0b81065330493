package modes

import (
	"strings"
	"testing"
)

var allTools = []ToolInfo{
	{"read_file", true}, {"find_in_file", true}, {"list_files", true}, {"glob", true}, {"grep_search", true},
	{"get_workspace_info", true}, {"web_fetch", true}, {"write_file", false}, {"edit", false}, {"delete_file", false},
	{"run_shell_command", false}, {"create_todo_list", false}, {"complete_todo_item", false},
	{ToolReportFindings, false}, {ToolReportPlan, false}, {ToolReportBlocked, false}, {ToolReportDone, false},
}

func offered(p Phase) []string {
	b := p.Blocked(allTools)
	var out []string
	for _, t := range allTools {
		if _, no := b[t.Name]; !no {
			out = append(out, t.Name)
		}
	}
	return out
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Mode{"": Agent, "Plan": Plan, " phases ": Phases, "reconcile": Reconcile} {
		if m, err := Parse(in); err != nil || m != want {
			t.Errorf("%q: %v %v", in, m, err)
		}
	}
	if _, err := Parse("yolo"); err == nil || !strings.Contains(err.Error(), "agent, plan, phases or reconcile") {
		t.Fatalf("bad mode: %v", err)
	}
}

func TestWhitelists(t *testing.T) {
	cases := []struct {
		p    Phase
		want string
	}{
		{PhaseOf(Agent, ""), "read_file find_in_file list_files glob grep_search get_workspace_info web_fetch write_file edit delete_file run_shell_command create_todo_list complete_todo_item report_findings report_plan report_blocked report_done"},
		{PhaseOf(Plan, ""), "read_file find_in_file list_files glob grep_search get_workspace_info web_fetch create_todo_list"},
		{PhaseOf(Phases, ""), "read_file find_in_file list_files glob grep_search get_workspace_info report_findings"},
		{PhaseOf(Phases, string(Planning)), "read_file find_in_file report_plan"},
		{PhaseOf(Phases, string(Patching)), "read_file find_in_file list_files glob grep_search get_workspace_info write_file edit delete_file report_blocked"},
		{PhaseOf(Phases, string(Verifying)), "read_file find_in_file list_files glob grep_search get_workspace_info run_shell_command report_blocked report_done"},
		{PhaseOf(Phases, string(Done)), ""},
		{PhaseOf(Reconcile, string(Coder)), "read_file find_in_file list_files glob grep_search get_workspace_info write_file edit delete_file run_shell_command"},
		{PhaseOf(Reconcile, string(Auditor)), ""},
	}
	for _, c := range cases {
		if got := strings.Join(offered(c.p), " "); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.p.Name, got, c.want)
		}
	}
	if why := PhaseOf(Plan, "").Blocked(allTools)["write_file"]; !strings.Contains(why, "does not allow write_file") {
		t.Errorf("blocked reason: %q", why)
	}
	if !PhaseOf(Phases, string(Verifying)).ReadOnlyShell {
		t.Error("verifying must limit the shell to read-only commands")
	}
}

func TestPhaseTransitions(t *testing.T) {
	var p Progress
	steps := []struct {
		r    Report
		want State
		err  string
	}{
		{Report{Tool: ToolReportPlan, Steps: []string{"x"}}, Exploring, "not a report of the EXPLORING phase"},
		{Report{Tool: ToolReportFindings}, Exploring, "needs the findings"},
		{Report{Tool: ToolReportFindings, Text: "main.go has the bug"}, Planning, ""},
		{Report{Tool: ToolReportPlan}, Planning, "at least one step"},
		{Report{Tool: ToolReportPlan, Steps: []string{"fix", "test"}}, Patching, ""},
		{Report{Tool: ToolReportDone, Text: "patched"}, Patching, "not a report of the PATCHING phase"},
		{Report{Tool: ToolWrote, Text: "main.go"}, Patching, ""}, // step 1 of 2 patched
		{Report{Tool: ToolWrote, Text: "main_test.go"}, Verifying, ""},
		{Report{Tool: ToolReportBlocked, Text: "go test fails"}, Patching, ""}, // back to patch the last step
		{Report{Tool: ToolWrote, Text: "main.go"}, Verifying, ""},
		{Report{Tool: ToolReportFindings, Text: "again"}, Verifying, "not a report"},
		{Report{Tool: ToolReportDone, Text: "tests pass"}, Done, ""},
	}
	for i, s := range steps {
		err := p.Apply(s.r)
		if (err == nil) != (s.err == "") || (err != nil && !strings.Contains(err.Error(), s.err)) {
			t.Fatalf("step %d: err %v, want %q", i, err, s.err)
		}
		if p.State != s.want {
			t.Fatalf("step %d: state %s, want %s", i, p.State, s.want)
		}
	}
	if !p.Ended() || p.Findings != "main.go has the bug" || len(p.Plan) != 2 {
		t.Fatalf("progress: %+v", p)
	}
}

func TestThreeBlockedFail(t *testing.T) {
	p := Progress{State: Patching, Plan: []string{"a"}}
	for i := 0; i < MaxBlocked-1; i++ {
		if err := p.Apply(Report{Tool: ToolReportBlocked, Text: "no access"}); err != nil || p.State != Patching {
			t.Fatalf("blocked %d: %v %s", i, err, p.State)
		}
	}
	// Another step's block does not add to this one's.
	if err := p.Apply(Report{Tool: ToolReportBlocked, StepKey: "other"}); err != nil || p.State != Patching {
		t.Fatal("another step's block ended the run")
	}
	if err := p.Apply(Report{Tool: ToolReportBlocked, Text: "still"}); err != nil || p.State != Failed || p.Reason != "still" {
		t.Fatalf("third block: %+v", p)
	}
}

func TestNudgeNamesReportTool(t *testing.T) {
	if n := Nudge(PhaseOf(Phases, "")); !strings.Contains(n, "report_findings") || !strings.Contains(n, "does not end it") {
		t.Fatal(n)
	}
}
