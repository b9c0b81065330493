package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// GuardedShell is run_shell_command limited by a policy on the command:
// Allow decides from the command and its surroundings (a relative cwd is
// taken from the first root), and a refused command fails the call with
// nothing run. The agents that may only check, never change (the plan's
// evaluators, the Phases mode's VERIFYING state, the reconcile agents),
// run their shell through it. Immutable, so safe for concurrent use.
type GuardedShell struct {
	Tool
	Roots []string
	// Allow returns whether the command may run and, if not, why (for
	// the model).
	Allow func(command string, ws shellcheck.Workspace) (ok bool, why string)
}

func (s GuardedShell) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var a struct {
		Command string `json:"command"`
		Cwd     string `json:"cwd"`
	}
	_ = json.Unmarshal(raw, &a)
	cwd := a.Cwd
	if cwd != "" && len(s.Roots) > 0 && !filepath.IsAbs(cwd) {
		cwd = filepath.Join(s.Roots[0], cwd)
	}
	home, _ := os.UserHomeDir()
	if ok, why := s.Allow(a.Command, shellcheck.Workspace{Roots: s.Roots, Cwd: cwd, Home: home}); !ok {
		return Withheld("run_shell_command refused: "+why+". Nothing was run.", env.Tr("Not run: the command %s is not allowed at this step.", a.Command)), nil
	}
	return s.Tool.Run(ctx, env, raw)
}
