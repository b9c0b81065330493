package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/spec"
)

//go:embed descriptions/validate_spec.md
var validateSpecDesc string

type validateSpecArgs struct {
	ChangeID string `json:"changeId" jsonschema:"required" jsonschema_description:"The change folder's name under changes/, e.g. add-csv-export."`
	Root     string `json:"root,omitempty" jsonschema_description:"Workspace folder holding specs/ and changes/; defaults to the first root."`
}

// ValidateSpec returns the validate_spec tool.
func ValidateSpec() Tool {
	return &define[validateSpecArgs]{name: "validate_spec", desc: validateSpecDesc, traits: Reads | Deferred,
		defaults: func() validateSpecArgs { return validateSpecArgs{} }, run: runValidateSpec}
}

func runValidateSpec(ctx context.Context, env *Env, a validateSpecArgs) (Result, error) {
	if len(env.Roots) == 0 {
		return FailShown("No workspace folder is open.", env.Tr("No workspace folder is open.")), nil
	}
	root := env.Roots[0]
	if a.Root != "" {
		abs, _, fail := resolveRead(env, a.Root)
		if fail != nil {
			return *fail, nil
		}
		root = abs
	}
	ps := spec.ValidateChange(root, strings.TrimSpace(a.ChangeID))
	if len(ps) == 0 {
		return Result{OK: true, Output: fmt.Sprintf("changes/%s is valid.", a.ChangeID), Meta: ps}, nil
	}
	var b, list strings.Builder
	fmt.Fprintf(&b, "changes/%s has %d problem(s):\n", a.ChangeID, len(ps))
	for _, p := range ps {
		list.WriteString("- " + p.String() + "\n")
	}
	b.WriteString(list.String())
	// The problems are the spec's own words; only the lead is translated.
	shown := env.Tr("changes/%s has %d problem(s):", a.ChangeID, len(ps)) + "\n" + strings.TrimRight(list.String(), "\n")
	return Result{OK: false, Output: strings.TrimRight(b.String(), "\n"), Display: shown, Meta: ps}, nil
}
