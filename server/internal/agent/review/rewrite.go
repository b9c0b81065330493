package review

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Rewrite is the shell editor's answer.
type Rewrite struct {
	Command string `json:"command"`
	Reason  string `json:"reason,omitempty"`
}

// RewriteOutcome is what one shell-editor call produced; with Unavailable
// set the caller keeps the original command.
type RewriteOutcome struct {
	Rewrite     Rewrite
	Duration    time.Duration
	Transcript  []llm.Message
	Unavailable string
}

// ParseRewrite validates the shell editor's answer.
func ParseRewrite(text string) (Rewrite, error) {
	raw, err := extractObject(text)
	if err != nil {
		return Rewrite{}, err
	}
	var w struct {
		Command *string `json:"command"`
		Reason  any     `json:"reason"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Rewrite{}, errors.New(`the answer must be {"command": string, "reason": string}: ` + err.Error())
	}
	if w.Command == nil || strings.TrimSpace(*w.Command) == "" {
		return Rewrite{}, errors.New(`"command" is missing or empty; return the command unchanged when it needs no change`)
	}
	return Rewrite{Command: strings.TrimSpace(*w.Command), Reason: strings.TrimSpace(flatten(w.Reason))}, nil
}

// RewriteShell asks the shell editor to make in.Command non-interactive,
// bounded and quieter.
func (r *Runner) RewriteShell(ctx context.Context, in ShellInput) RewriteOutcome {
	var rw Rewrite
	tr, d, err := r.converse(ctx, systemPrompts[KindShellEditor], in.EditorPrompt(), func(text string) error {
		var err error
		rw, err = ParseRewrite(text)
		return err
	})
	out := RewriteOutcome{Duration: d, Transcript: tr}
	if err != nil {
		out.Unavailable = err.Error()
		return out
	}
	out.Rewrite = rw
	return out
}
