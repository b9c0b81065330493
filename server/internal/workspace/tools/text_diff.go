package tools

import (
	"context"
	_ "embed"
	"fmt"

	udiff "github.com/aymanbagabas/go-udiff"
)

//go:embed descriptions/text_diff.md
var textDiffDesc string

type textDiffArgs struct {
	Original     string `json:"original" jsonschema:"required" jsonschema_description:"The original text."`
	Modified     string `json:"modified" jsonschema:"required" jsonschema_description:"The modified text."`
	ContextLines int    `json:"contextLines,omitempty" jsonschema:"minimum=0,default=3" jsonschema_description:"Unchanged lines shown around each change."`
}

// TextDiff returns the text_diff tool.
func TextDiff() Tool {
	return &define[textDiffArgs]{
		name: "text_diff", desc: textDiffDesc, traits: Computes | Deferred,
		defaults: func() textDiffArgs { return textDiffArgs{ContextLines: 3} },
		run:      runTextDiff,
	}
}

func runTextDiff(ctx context.Context, env *Env, a textDiffArgs) (Result, error) {
	if a.ContextLines < 0 {
		return FailShown("text_diff: contextLines must be ≥ 0", env.Tr("%s: the context lines must be 0 or more.", "text_diff")), nil
	}
	if a.Original == a.Modified {
		return Result{OK: true, Output: "The texts are identical."}, nil
	}
	edits := udiff.Strings(a.Original, a.Modified)
	d, err := udiff.ToUnified("original", "modified", a.Original, edits, a.ContextLines)
	if err != nil {
		return FailShown(fmt.Sprintf("text_diff: %v", err), env.Tr("The diff failed: %v", err)), nil
	}
	return Result{OK: true, Output: d}, nil
}
