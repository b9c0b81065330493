package moderun

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// pathGuard enforces a step's path rule on a write tool when it is
// called: the rule holds whatever the model sends.
type pathGuard struct {
	tools.Tool
	rule func(string) error
	// roots are the workspace roots: an absolute target is judged by its
	// path inside the root that holds it, not by the folders above it.
	roots []string
	// after, when set, runs once the write succeeded; its error is told
	// to the model with the result.
	after func(ctx context.Context, env *tools.Env, path string) error
	// note, when set, runs once the write succeeded; what it returns is
	// added to the result (what the write moved on).
	note func(ctx context.Context, path string) string
	// shared, when set, judges a write to a file the code and the tests
	// share (package.json…) by its content before and after; a refused
	// write is undone.
	shared func(rel string, before, after []byte) error
}

func (g pathGuard) Run(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	var a struct {
		FilePath string `json:"filePath"`
		Path     string `json:"path"`
	}
	_ = json.Unmarshal(args, &a)
	p := a.FilePath
	if p == "" {
		p = a.Path
	}
	rel := workspaceRel(g.roots, p)
	if err := g.rule(rel); err != nil {
		return tools.Withheld(err.Error(), env.Tr("Not written: this step may not change %s.", rel)), nil
	}
	if g.shared != nil && modes.IsSharedConfigPath(rel) {
		return g.runShared(ctx, env, args, p, rel)
	}
	res, err := g.Tool.Run(ctx, env, args)
	if err == nil && res.OK && g.after != nil {
		if aerr := g.after(ctx, env, p); aerr != nil {
			res.OK = false
			res.Output += "\n\nThe file was written, but " + aerr.Error() + ". Fix it and write it again."
		}
	}
	if err == nil && res.OK && g.note != nil {
		if n := g.note(ctx, p); n != "" {
			res.Output = strings.TrimRight(res.Output, "\n") + "\n\n" + n
		}
	}
	return res, err
}

// workspaceRel is p inside the workspace root that holds it (p itself
// when relative, or outside every root, where the tools' sandbox refuses
// it anyway).
func workspaceRel(roots []string, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	for _, r := range roots {
		if rel, err := filepath.Rel(r, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return p
}

// guardWrites wraps the write tools with the drafting path rule in
// Reconcile mode (the loop's agents get theirs in StepTools); a manifest
// written becomes the session's run, waiting for approval.
func (m *Modes) guardWrites(sid string, md modes.Mode, ts []tools.Tool) []tools.Tool {
	if md != modes.Reconcile {
		return ts
	}
	rule := modes.WriteRule("")
	drafted := func(ctx context.Context, env *tools.Env, p string) error {
		return m.onManifestDrafted(ctx, sid, env.TurnID, p)
	}
	for i, t := range ts {
		switch {
		case tools.WritesOneFile(t):
			// Drafting offers write_file alone (toolpolicy); a file
			// written there is the manifest.
			ts[i] = pathGuard{Tool: t, rule: rule, roots: m.roots, after: drafted}
		case t.Traits().Has(tools.WritesWorkspace):
			ts[i] = pathGuard{Tool: t, rule: rule, roots: m.roots}
		}
	}
	return ts
}

// StepTools is what a reconcile loop's scoped agent is given: ts (the
// built-in tools) with the step's refusals (toolpolicy), its path rule on
// every write tool, and a shell that may only check.
func StepTools(step modes.Step, ts []tools.Tool, roots []string) ([]tools.Tool, toolpolicy.Decision) {
	rule := modes.WriteRule(step)
	shared := func(rel string, before, after []byte) error { return modes.CheckSharedEdit(step, rel, before, after) }
	for i, t := range ts {
		switch {
		case t.Traits().Has(tools.WritesWorkspace):
			ts[i] = pathGuard{Tool: t, rule: rule, roots: roots, shared: shared}
		case t.Name() == modes.ToolShell:
			// Files change through the write tools, where the path rule
			// holds; the shell may only read and run checks (the tests).
			ts[i] = ChecksOnlyShell(t, roots, "the "+string(step))
		}
	}
	return ts, toolpolicy.Decide(toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Reconcile, Phase: string(step)}, ts)
}
