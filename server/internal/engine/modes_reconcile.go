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
	// after, when set, runs once the write succeeded; its error is told
	// to the model with the result.
	after func(ctx context.Context, env *tools.Env, path string) error
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
	res, err := g.Tool.Run(ctx, env, args)
	if err == nil && res.OK && g.after != nil {
		if aerr := g.after(ctx, env, p); aerr != nil {
			res.OK = false
			res.Output += "\n\nThe file was written, but " + aerr.Error() + ". Fix it and write it again."
		}
	}
	return res, err
}

// guardWrites wraps the write tools with the drafting path rule in
// Reconcile mode (the loop's agents get theirs in reconcileTools); a
// manifest written becomes the session's run, waiting for approval.
func (e *Engine) guardWrites(ctx context.Context, sid string, ts []tools.Tool) []tools.Tool {
	if e.Mode(ctx, sid) != modes.Reconcile {
		return ts
	}
	rule := modes.WriteRule("")
	drafted := func(ctx context.Context, env *tools.Env, p string) error {
		return e.onManifestDrafted(ctx, sid, env.TurnID, p)
	}
	for i, t := range ts {
		if writeTools[t.Name()] {
			ts[i] = pathGuard{Tool: t, rule: rule}
			if t.Name() == "write_file" || t.Name() == "edit" {
				ts[i] = pathGuard{Tool: t, rule: rule, after: drafted}
			}
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
