package tools

import (
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed descriptions/get_diagnostics.md
var diagnosticsDesc string

type diagnosticsArgs struct {
	FilePath string `json:"filePath,omitempty" jsonschema_description:"File to get problems for; omit for the whole workspace."`
}

// GetDiagnostics returns the get_diagnostics tool.
func GetDiagnostics() Tool {
	return &define[diagnosticsArgs]{
		name: "get_diagnostics", desc: diagnosticsDesc, traits: Reads | FromEditor,
		defaults: func() diagnosticsArgs { return diagnosticsArgs{} },
		run:      runDiagnostics,
	}
}

const maxDiagnostics = 200

func runDiagnostics(ctx context.Context, env *Env, a diagnosticsArgs) (Result, error) {
	if env.Host == nil {
		return FailShown("diagnostics are unavailable: no editor is attached (headless run); run the build or linter with run_shell_command instead",
			env.Tr("Diagnostics are unavailable: no editor is attached.")), nil
	}
	sb := sandboxOf(env)
	path := ""
	if a.FilePath != "" {
		abs, err := sb.Resolve(a.FilePath)
		if err != nil {
			return failFrom(env, err), nil
		}
		if err := env.readable(abs); err != nil {
			return failFrom(env, err), nil
		}
		path = abs
	}
	ds, err := env.Host.Diagnostics(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return FailShown(fmt.Sprintf("the editor could not provide diagnostics: %v", err), env.Tr("The editor could not provide diagnostics: %v", err)), nil
	}
	// Diagnostics quote code: a file the Read rules deny is left out.
	withheld := map[string]bool{}
	kept := ds[:0]
	for _, d := range ds {
		if d.Path != "" && env.readable(d.Path) != nil {
			withheld[d.Path] = true
			continue
		}
		kept = append(kept, d)
	}
	ds = kept
	if len(ds) == 0 {
		where := "the workspace"
		if a.FilePath != "" {
			where = sb.Display(path)
		}
		return Result{OK: true, Output: "No problems reported for " + where + "." + withheldNote(len(withheld), "file(s) with problems")}, nil
	}
	rank := map[string]int{"error": 0, "warning": 1, "information": 2, "info": 2, "hint": 3}
	sort.SliceStable(ds, func(i, j int) bool {
		ri, rj := rank[strings.ToLower(ds[i].Severity)], rank[strings.ToLower(ds[j].Severity)]
		if ri != rj {
			return ri < rj
		}
		if ds[i].Path != ds[j].Path {
			return ds[i].Path < ds[j].Path
		}
		return ds[i].Line < ds[j].Line
	})
	var out strings.Builder
	fmt.Fprintf(&out, "%d problem(s):\n", len(ds))
	for i, d := range ds {
		if i == maxDiagnostics {
			fmt.Fprintf(&out, "[%d more not shown]\n", len(ds)-maxDiagnostics)
			break
		}
		src := ""
		if d.Source != "" {
			src = " [" + d.Source + "]"
		}
		fmt.Fprintf(&out, "%s:%d:%d: %s: %s%s\n", sb.Display(d.Path), d.Line, d.Column, d.Severity, d.Message, src)
	}
	return Result{OK: true, Output: strings.TrimRight(out.String(), "\n") + withheldNote(len(withheld), "file(s) with problems"), Meta: ds}, nil
}
