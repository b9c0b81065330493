package toolpolicy

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestRoles (the scheduler's TestPolicy): what the
// free phase, its closing run, executors and evaluators may not use.
func TestRoles(t *testing.T) {
	ts := pick("read_file", "edit", "write_file", "run_shell_command", "create_todo_list", "complete_todo_item", "compact", "investigate")
	got := func(r Role, final bool) string {
		d := Decide(Situation{Role: r, Final: final}, ts)
		var out []string
		for _, x := range ts {
			if _, ok := d.Blocked[x.Name()]; ok {
				out = append(out, x.Name())
			}
		}
		return strings.Join(out, ",")
	}
	if g := got(Main, false); g != "complete_todo_item" {
		t.Errorf("free blocks %s", g)
	}
	// The closing run refuses create_todo_list but still offers it, so its
	// tool definitions are the free phase's and its request extends the
	// main agent's cached prefix.
	if g := got(Main, true); g != "complete_todo_item" {
		t.Errorf("final blocks %s", g)
	}
	final := Decide(Situation{Role: Main, Final: true}, ts)
	if why, ok := final.Refused["create_todo_list"]; !ok || !strings.Contains(why.String(), "plan has just finished") {
		t.Errorf("the closing run does not refuse create_todo_list with its reason: %v %q", ok, why)
	}
	if got, want := offeredNames(final, ts), offeredNames(Decide(Situation{Role: Main}, ts), ts); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the closing run offers %v, the free phase %v: its request would miss the cache", got, want)
	}
	if g := got(Executor, false); g != "create_todo_list,complete_todo_item,compact" {
		t.Errorf("executor blocks %s", g)
	}
	if g := got(Evaluator, false); g != "edit,write_file,compact,investigate" {
		t.Errorf("evaluator blocks %s", g)
	}
	if g := got(Reviewer, false); g != "read_file,edit,write_file,run_shell_command,create_todo_list,complete_todo_item,compact,investigate" {
		t.Errorf("reviewer blocks %s", g)
	}
}

// TestInvestigatorAndCustomAgents: the investigator reads and searches
// (the tools it was listed: read_file … get_file_info, and every other
// tool that only looks); a custom agent gets its definition's list.
func TestInvestigatorAndCustomAgents(t *testing.T) {
	ts := tools.Builtin()
	inv := offeredNames(Decide(Situation{Role: Investigator}, ts), ts)
	for _, n := range []string{"read_file", "find_in_file", "grep_search", "list_files", "glob", "get_workspace_info", "get_file_info"} {
		if !contains(inv, n) {
			t.Errorf("the investigator lost %s: %v", n, inv)
		}
	}
	for _, n := range inv {
		if tr := tools.BuiltinTraits(n); !tr.Within(tools.Looks) {
			t.Errorf("the investigator is offered %s (%s)", n, tr)
		}
	}
	custom := Decide(Situation{Role: CustomAgent, AgentTools: []string{"read_file", "edit"}}, ts)
	if got := strings.Join(offeredNames(custom, ts), ","); got != "read_file,edit" {
		t.Errorf("custom agent offered %s", got)
	}
	if all := Decide(Situation{Role: CustomAgent, AgentAllTools: true}, ts); len(all.Blocked) != 0 {
		t.Errorf("an agent with every tool lost %v", all.Blocked)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
