package scheduler

import (
	"strings"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// Tool names the scheduler knows about. Which role may use which tool is
// decided with every other tool rule in package toolpolicy.
const (
	ToolCreateTodo   = "create_todo_list"
	ToolCompleteTodo = "complete_todo_item"
	ToolShell        = "run_shell_command"
	ToolCompact      = "compact"
)

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
