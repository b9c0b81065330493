package engine

import (
	"strings"

	"github.com/govibe/govibe/server/internal/shellcheck"
	"github.com/govibe/govibe/server/internal/tools"
)

// checksOnlyShell is run_shell_command limited to what the shell analysis
// classifies read-only, or a check (test runner, linter, type checker run
// without options that write). The Phases mode's VERIFYING state and the
// reconcile agents use it: there, files change only through the write
// tools, whose path rules hold. who names the agent in a refusal ("the
// VERIFYING phase", "the coder").
func checksOnlyShell(t tools.Tool, roots []string, who string) tools.Tool {
	return tools.GuardedShell{Tool: t, Roots: roots, Allow: func(command string, ws shellcheck.Workspace) (bool, string) {
		an := shellcheck.Analyze(command, ws)
		if shellcheck.OnlyChecks(an) {
			return true, ""
		}
		why := who + " may only run read-only commands or checks (tests, linters, git status); this one is " + an.Class.String()
		if len(an.Reasons) > 0 {
			why += " (" + strings.Join(an.Reasons, "; ") + ")"
		}
		return false, why
	}}
}
