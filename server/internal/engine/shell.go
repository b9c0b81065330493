package engine

import (
	"os"

	"github.com/govibe/govibe/server/internal/shellcheck"
)

// classifyShell runs the static analysis and converts it for the UI.
func classifyShell(command string, roots []string, cwd string) ShellAnalysis {
	home, _ := os.UserHomeDir()
	a := shellcheck.Analyze(command, shellcheck.Workspace{Roots: roots, Cwd: cwd, Home: home})
	reasons := append([]string(nil), a.Reasons...)
	if a.UseTool != nil {
		reasons = append(reasons, a.UseTool.Message)
	}
	return ShellAnalysis{Class: a.Class.String(), Reasons: reasons}
}
