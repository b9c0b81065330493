package scheduler

import (
	"strings"

	"github.com/govibe/govibe/server/internal/shellcheck"
)

// Tool names the scheduler knows about.
const (
	ToolCreateTodo   = "create_todo_list"
	ToolCompleteTodo = "complete_todo_item"
	ToolShell        = "run_shell_command"
	ToolCompact      = "compact"
)

// evaluatorReads are the read-only tools an evaluator is offered besides
// the plan tools and the read-only-limited shell.
var evaluatorReads = map[string]bool{
	"read_file": true, "find_in_file": true, "grep_search": true, "list_files": true, "glob": true,
	"get_workspace_info": true, "get_file_info": true, "text_diff": true, "get_diagnostics": true,
}

// Blocked returns, for each tool in names that role may not use, why. The
// agent loop neither offers these nor runs them when called anyway.
// final marks the closing free phase, which summarises and may not start
// another plan.
func Blocked(role Role, names []string, final bool) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if why := blockedWhy(role, n, final); why != "" {
			out[n] = why
		}
	}
	return out
}

func blockedWhy(role Role, name string, final bool) string {
	switch role {
	case RoleFree:
		switch {
		case name == ToolCompleteTodo:
			return "items are completed by the evaluator while the scheduler runs the plan"
		case final && name == ToolCreateTodo:
			return "the plan has just finished; summarise the results instead of planning again"
		}
	case RoleExecutor:
		switch name {
		case ToolCreateTodo, ToolCompleteTodo:
			return "executors carry out their item; the evaluator decides whether it is done and changes the plan"
		case ToolCompact:
			return "global compaction runs only in the free phase"
		}
	case RoleEvaluator:
		switch {
		case name == ToolCreateTodo || name == ToolCompleteTodo || name == ToolShell || evaluatorReads[name]:
			return ""
		case name == ToolCompact:
			return "global compaction runs only in the free phase"
		default:
			return "evaluators only read and check; they never edit, write or run commands that change anything"
		}
	}
	return ""
}

// EvaluatorMayRun says whether an evaluator may run command: only what
// the shell analysis classifies read-only (git status, cat) and test
// runners, linters and type checkers without options that write. The
// command still goes through the usual approval.
func EvaluatorMayRun(command string, ws shellcheck.Workspace) (bool, string) {
	a := shellcheck.Analyze(command, ws)
	if shellcheck.OnlyChecks(a) {
		return true, ""
	}
	why := "evaluators may only run commands classified read-only, or checks (tests, linters, git status, ...); this one is " + a.Class.String()
	if len(a.Reasons) > 0 {
		why += " (" + strings.Join(a.Reasons, "; ") + ")"
	}
	return false, why
}
