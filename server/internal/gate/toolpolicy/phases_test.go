package toolpolicy

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// allTools is the tool set the modes' whitelist test has always used.
var allTools = pick("read_file", "find_in_file", "list_files", "glob", "grep_search", "get_workspace_info", "web_fetch",
	"write_file", "edit", "delete_file", "run_shell_command", "create_todo_list", "complete_todo_item",
	modes.ToolReportFindings, modes.ToolReportPlan, modes.ToolReportBlocked, modes.ToolReportDone)

// phaseOffer is what a mode's phase alone offers of allTools.
func phaseOffer(m modes.Mode, phase string) string {
	var out []string
	for _, t := range allTools {
		if _, no := phaseRule(m, phase, t.Name(), t.Traits()); !no {
			out = append(out, t.Name())
		}
	}
	return strings.Join(out, " ")
}

// TestWhitelists (moved from package modes, assertions unchanged): each
// mode's phase offers what it did when it listed tool names.
func TestWhitelists(t *testing.T) {
	cases := []struct {
		m     modes.Mode
		phase string
		want  string
	}{
		{modes.Agent, "", "read_file find_in_file list_files glob grep_search get_workspace_info web_fetch write_file edit delete_file run_shell_command create_todo_list complete_todo_item report_findings report_plan report_blocked report_done"},
		{modes.Plan, "", "read_file find_in_file list_files glob grep_search get_workspace_info web_fetch create_todo_list"},
		{modes.Phases, "", "read_file find_in_file list_files glob grep_search get_workspace_info report_findings"},
		{modes.Phases, string(modes.Planning), "read_file find_in_file report_plan"},
		{modes.Phases, string(modes.Patching), "read_file find_in_file list_files glob grep_search get_workspace_info write_file edit delete_file report_blocked"},
		{modes.Phases, string(modes.Verifying), "read_file find_in_file list_files glob grep_search get_workspace_info run_shell_command report_blocked report_done"},
		{modes.Phases, string(modes.Done), ""},
		{modes.Reconcile, string(modes.Coder), "read_file find_in_file list_files glob grep_search get_workspace_info write_file edit delete_file run_shell_command"},
		{modes.Reconcile, string(modes.Auditor), ""},
	}
	for _, c := range cases {
		if got := phaseOffer(c.m, c.phase); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.m, c.phase, got, c.want)
		}
	}
	if why, _ := phaseRule(modes.Plan, "", "write_file", tools.WritesWorkspace); !strings.Contains(why.String(), "does not allow write_file") {
		t.Errorf("blocked reason: %q", why)
	}
}

// TestReconcileAgentsWithoutAskHuman (moved from package modes): the
// loop's scoped agents (specifier, coder; the auditor calls no model) are
// never offered ask_human, so a question dialog and its Close note belong
// to the turn's main agent, which drafts the manifest.
func TestReconcileAgentsWithoutAskHuman(t *testing.T) {
	ask := pick("ask_human")
	for _, s := range []modes.Step{modes.Specifier, modes.Coder, modes.Auditor} {
		d := Decide(Situation{Role: Main, Mode: modes.Reconcile, Phase: string(s)}, ask)
		if _, ok := d.Blocked["ask_human"]; !ok {
			t.Errorf("the %s is offered ask_human", s)
		}
	}
	if d := Decide(Situation{Role: Main, Mode: modes.Reconcile}, ask); len(d.Blocked) != 0 {
		t.Errorf("drafting the manifest may ask: %v", d.Blocked)
	}
}
