package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

type countingTool struct{ runs int }

func (c *countingTool) Name() string            { return "run_shell_command" }
func (c *countingTool) Description() string     { return "" }
func (c *countingTool) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (c *countingTool) ReadOnly() bool          { return false }
func (c *countingTool) Traits() Traits          { return RunsCommands }
func (c *countingTool) Run(context.Context, *Env, json.RawMessage) (Result, error) {
	c.runs++
	return Result{OK: true, Output: "ran"}, nil
}

// A refused command fails the call and never reaches the shell; an
// allowed one runs; the policy sees a relative cwd under the first root.
func TestGuardedShell(t *testing.T) {
	inner := &countingTool{}
	root := t.TempDir()
	var seen shellcheck.Workspace
	g := GuardedShell{Tool: inner, Roots: []string{root}, Allow: func(cmd string, ws shellcheck.Workspace) (bool, string) {
		seen = ws
		return cmd == "go test ./...", "only tests here"
	}}
	res, err := g.Run(context.Background(), nil, json.RawMessage(`{"command":"rm -rf .","cwd":"sub"}`))
	if err != nil || res.OK || res.Output != "run_shell_command refused: only tests here. Nothing was run." || inner.runs != 0 {
		t.Fatalf("refused: %+v %v, %d runs", res, err, inner.runs)
	}
	// A rule of the step, not a failure: the chat shows it neutrally.
	if m, _ := res.Meta.(map[string]any); m["withheld"] != true {
		t.Fatalf("a refused command is not marked withheld: %#v", res.Meta)
	}
	if seen.Cwd != filepath.Join(root, "sub") || len(seen.Roots) != 1 || seen.Roots[0] != root {
		t.Fatalf("workspace %+v", seen)
	}
	res, err = g.Run(context.Background(), nil, json.RawMessage(`{"command":"go test ./..."}`))
	if err != nil || !res.OK || inner.runs != 1 || seen.Cwd != "" {
		t.Fatalf("allowed: %+v %v, %d runs, cwd %q", res, err, inner.runs, seen.Cwd)
	}
	if g.Name() != "run_shell_command" || g.ReadOnly() {
		t.Fatal("the guard must keep the tool's definition")
	}
}
