package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/shellcheck"
	"github.com/govibe/govibe/server/internal/tools"
)

// checksOnlyShell is run_shell_command limited to what the shell analysis
// classifies read-only, or a check (test runner, linter, type checker run
// without options that write). The Phases mode's VERIFYING state and the
// reconcile agents use it: there, files change only through the write
// tools, whose path rules hold. Immutable, so safe for concurrent use.
type checksOnlyShell struct {
	tools.Tool
	roots []string
	who   string // "the VERIFYING phase", "the coder"
}

func (s checksOnlyShell) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Command string `json:"command"`
		Cwd     string `json:"cwd"`
	}
	_ = json.Unmarshal(raw, &a)
	cwd := a.Cwd
	if cwd != "" && len(s.roots) > 0 && !filepath.IsAbs(cwd) {
		cwd = filepath.Join(s.roots[0], cwd)
	}
	home, _ := os.UserHomeDir()
	an := shellcheck.Analyze(a.Command, shellcheck.Workspace{Roots: s.roots, Cwd: cwd, Home: home})
	if !shellcheck.OnlyChecks(an) {
		why := s.who + " may only run read-only commands or checks (tests, linters, git status); this one is " + an.Class.String()
		if len(an.Reasons) > 0 {
			why += " (" + strings.Join(an.Reasons, "; ") + ")"
		}
		return tools.Fail("run_shell_command refused: " + why + ". Nothing was run."), nil
	}
	return s.Tool.Run(ctx, env, raw)
}
