package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/tools"
)

// Reconcile mode's engine side: /reconcile <intent> switches the session
// to Reconcile and turns the intent into a drafting turn whose only
// writable file is the manifest (through the normal write confirmation).

// writeTools take a filePath argument that a path rule must allow.
var writeTools = map[string]bool{"write_file": true, "edit": true, "delete_file": true, "create_directory": true}

// pathGuard enforces a step's path rule on a write tool when it is
// called: the rule holds whatever the model sends.
type pathGuard struct {
	tools.Tool
	rule func(string) error
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
	if err := g.rule(p); err != nil {
		return tools.Fail(err.Error()), nil
	}
	return g.Tool.Run(ctx, env, args)
}

// guardWrites wraps the write tools with the mode's path rule (Reconcile
// drafting only, for now; the loop's agents use modes.WriteRule too).
func (e *Engine) guardWrites(ctx context.Context, sid string, ts []tools.Tool) []tools.Tool {
	if e.Mode(ctx, sid) != modes.Reconcile {
		return ts
	}
	rule := modes.WriteRule("")
	for i, t := range ts {
		if writeTools[t.Name()] {
			ts[i] = pathGuard{Tool: t, rule: rule}
		}
	}
	return ts
}

// reconcileCommand handles "/reconcile <intent>".
func (e *Engine) reconcileCommand(ctx context.Context, p SendParams, args string) (commandOutcome, error) {
	intent := strings.TrimSpace(args)
	if intent == "" {
		return commandOutcome{}, errors.New(e.tr("/reconcile needs an intent, e.g. /reconcile a snake game in React"))
	}
	if p.SessionID == "" {
		return commandOutcome{}, errors.New(e.tr("/reconcile needs an open session"))
	}
	if err := e.SetMode(ctx, p.SessionID, string(modes.Reconcile)); err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{text: modes.DraftPrompt(intent)}, nil
}
