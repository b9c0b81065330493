package engine

import (
	"context"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/tools"
)

// A custom command's frontmatter may name the model its turn uses and the
// tools it may use (`model`, `allowedTools`/`allowed-tools`/`tools`). Both
// hold for that one turn only: its runs (free phase, executors,
// evaluators) get the model, and every tool the list does not name is
// blocked, so it is neither offered nor run. The session's own model and
// tool list come back with the next message.

// allowedToolSet turns a command's list into tool names. A Claude-style
// argument pattern (`Bash(git status:*)`) allows the tool: the command's
// shell calls still pass the permission rules and confirmations.
func allowedToolSet(list []string) map[string]bool {
	if len(list) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, raw := range list {
		n := tools.BareToolName(raw)
		if n == "" {
			continue
		}
		out[n] = true
		for _, m := range tools.CompatNames(n) {
			out[m] = true
		}
	}
	return out
}

// blockUnlisted blocks every tool of names the turn's command does not
// allow; a turn not started by such a command is left alone.
func blockUnlisted(t *turn, names []string, blocked map[string]string) {
	if t.allowed == nil {
		return
	}
	for _, n := range names {
		if !t.allowed[n] && !allowsMCP(t.allowed, n) {
			if _, ok := blocked[n]; !ok {
				blocked[n] = "the command that started this turn does not allow this tool (its allowedTools)"
			}
		}
	}
}

// allowsMCP: an MCP tool the list names by itself or by its server, and
// the search tools standing in for such tools (they reach only those).
func allowsMCP(allowed map[string]bool, n string) bool {
	if n == tools.MCPCallName || n == tools.MCPSearchName {
		return tools.AllowsMCP(allowed)
	}
	return strings.HasPrefix(n, "mcp__") && tools.MCPAllowed(allowed, n)
}

// allowedList is t.allowed as a sorted list (what is persisted).
func allowedList(t *turn) []string {
	if t.allowed == nil {
		return nil
	}
	out := make([]string, 0, len(t.allowed))
	for n := range t.allowed {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// recordTurnLimits persists the limits of the session's latest turn (or
// their absence), so a run of it that a restart parked on a question
// resumes under them (resumeParked).
func (e *Engine) recordTurnLimits(ctx context.Context, t *turn) {
	var err error
	if t.model == "" && t.allowed == nil {
		// Most turns have no command: read before writing.
		if _, ok, _ := sessionstate.Get(ctx, e.Store, t.sessionID, sessionstate.TurnLimits); ok {
			err = sessionstate.Delete(ctx, e.Store, t.sessionID, sessionstate.TurnLimits)
		}
	} else {
		err = sessionstate.Set(ctx, e.Store, t.sessionID, sessionstate.TurnLimits,
			sessionstate.TurnLimitsState{TurnID: t.id, Model: t.model, Allowed: allowedList(t)})
	}
	if err != nil {
		e.log.Warn("recording the turn's command limits", zap.Error(err))
	}
}

// restoreTurnLimits gives a resumed run of turn t the limits it started
// with.
func (e *Engine) restoreTurnLimits(ctx context.Context, t *turn) {
	if l, ok, _ := sessionstate.Get(ctx, e.Store, t.sessionID, sessionstate.TurnLimits); ok && l.TurnID == t.id {
		t.model, t.allowed = l.Model, allowedToolSet(l.Allowed)
	}
}

// stampPlanLimits records the turn's limits in the plan it created, so
// every later run of the plan (a "continue" after Stop, a restart, Run
// plan) keeps them.
func (e *Engine) stampPlanLimits(ctx context.Context, t *turn) {
	if t.model == "" && t.allowed == nil {
		return
	}
	_, err := e.plans.Update(ctx, t.sessionID, t.id, TagFree, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if p != nil {
			p.Model, p.AllowedTools = t.model, allowedList(t)
		}
		return p, nil
	})
	if err != nil {
		e.log.Warn("recording the plan's command limits", zap.Error(err))
	}
}

// planLimits gives a turn that resumes the session's plan the limits of
// the command that created it.
func (e *Engine) planLimits(ctx context.Context, t *turn) {
	if p, err := e.plans.Read(ctx, t.sessionID); err == nil && p != nil && (p.Model != "" || p.AllowedTools != nil) {
		t.model, t.allowed = p.Model, allowedToolSet(p.AllowedTools)
	}
}
