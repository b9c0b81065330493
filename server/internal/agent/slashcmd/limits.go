package slashcmd

import (
	"context"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A custom command's frontmatter may name the model its turn uses and the
// tools it may use (`model`, `allowedTools`/`allowed-tools`/`tools`). Both
// hold for that one turn only: its runs (free phase, executors,
// evaluators) get the model, and every tool the list does not name is
// blocked (toolpolicy), so it is neither offered nor run. The session's own model and
// tool list come back with the next message. The limits outlive the
// process: the latest turn's are session state (RecordTurn, RestoreTurn)
// and a plan the turn created carries them (StampPlan, FromPlan).

// Limits are a turn's command limits; the zero value limits nothing.
type Limits struct {
	// Model is the command's model ("": the session's).
	Model string
	// Allowed are the tools it allows (nil: no list, every tool).
	Allowed map[string]bool
	// Rules are the list's Claude Code permission patterns
	// (`Bash(git add:*)`): as in Claude Code they pre-approve exactly
	// those calls for the turn (approval.Turn.AllowRules), below every
	// deny and ask rule and never for a dangerous command.
	Rules []string
}

// LimitsOf turns a command's frontmatter into limits. A Claude-style
// argument pattern (`Bash(git status:*)`) allows the tool and is an allow
// rule for the turn; a bare name (`Bash`) only offers the tool, whose
// calls still pass the permission rules and confirmations.
func LimitsOf(model string, allowed []string) Limits {
	return Limits{Model: model, Allowed: allowedSet(allowed), Rules: turnRules(allowed)}
}

// turnRules are the entries of an allowed-tools list that are permission
// rules with a pattern, as the rule grammar reads them; others are left
// out (a bare name grants no approval).
func turnRules(list []string) []string {
	var out []string
	for _, raw := range list {
		s := strings.TrimSpace(raw)
		if !strings.Contains(s, "(") {
			continue
		}
		r, err := permission.Parse(s)
		if err != nil || r.Specifier == "" {
			continue
		}
		out = append(out, r.String())
	}
	return out
}

func allowedSet(list []string) map[string]bool {
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

// None says the turn was not started by a command with limits.
func (l Limits) None() bool { return l.Model == "" && l.Allowed == nil && l.Rules == nil }

// Allows says whether the command's list allows the tool called name
// (every tool when there is no list). toolpolicy.Decide withholds the
// others, with the reason.
func (l Limits) Allows(name string) bool {
	return l.Allowed == nil || l.Allowed[name] || allowsMCP(l.Allowed, name)
}

// Command is Allows for toolpolicy.Situation.Command: nil when there is no
// list.
func (l Limits) Command() func(name string) bool {
	if l.Allowed == nil {
		return nil
	}
	return l.Allows
}

// allowsMCP: an MCP tool the list names by itself or by its server, and
// the search tools standing in for such tools (they reach only those).
func allowsMCP(allowed map[string]bool, n string) bool {
	if n == tools.MCPCallName || n == tools.MCPSearchName {
		return tools.AllowsMCP(allowed)
	}
	return strings.HasPrefix(n, "mcp__") && tools.MCPAllowed(allowed, n)
}

// AllowedList is Allowed as a sorted list, then the rules (what is
// persisted: LimitsOf reads both back); nil when there is no list.
func (l Limits) AllowedList() []string {
	if l.Allowed == nil {
		return nil
	}
	out := make([]string, 0, len(l.Allowed)+len(l.Rules))
	for n := range l.Allowed {
		out = append(out, n)
	}
	sort.Strings(out)
	return append(out, l.Rules...)
}

// RecordTurn persists the limits of the session's latest turn (or their
// absence), so a run of it that a restart parked on a question resumes
// under them (RestoreTurn).
func RecordTurn(ctx context.Context, kv sessionstate.KV, sid, turnID string, l Limits) error {
	if l.None() {
		// Most turns have no command: read before writing.
		if _, ok, _ := sessionstate.Get(ctx, kv, sid, sessionstate.TurnLimits); ok {
			return sessionstate.Delete(ctx, kv, sid, sessionstate.TurnLimits)
		}
		return nil
	}
	return sessionstate.Set(ctx, kv, sid, sessionstate.TurnLimits,
		sessionstate.TurnLimitsState{TurnID: turnID, Model: l.Model, Allowed: l.AllowedList()})
}

// RestoreTurn gives a resumed run of turn turnID the limits it started
// with; ok is false when that turn had none.
func RestoreTurn(ctx context.Context, kv sessionstate.KV, sid, turnID string) (Limits, bool) {
	if s, ok, _ := sessionstate.Get(ctx, kv, sid, sessionstate.TurnLimits); ok && s.TurnID == turnID {
		return LimitsOf(s.Model, s.Allowed), true
	}
	return Limits{}, false
}

// Plans is the session's todo plan as the limits use it (planrun.Runner).
type Plans interface {
	Read(ctx context.Context, sid string) (*scheduler.Plan, error)
	Update(ctx context.Context, sid, turnID, tag string, f func(p *scheduler.Plan) (*scheduler.Plan, error)) (*scheduler.Plan, error)
}

// StampPlan records the limits in the plan the turn created, so every
// later run of the plan (a "continue" after Stop, a restart, Run plan)
// keeps them. No limits change nothing.
func StampPlan(ctx context.Context, plans Plans, sid, turnID, tag string, l Limits) error {
	if l.None() {
		return nil
	}
	_, err := plans.Update(ctx, sid, turnID, tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if p != nil {
			p.Model, p.AllowedTools = l.Model, l.AllowedList()
		}
		return p, nil
	})
	return err
}

// FromPlan gives a turn that resumes the session's plan the limits of the
// command that created it; ok is false when the plan has none.
func FromPlan(ctx context.Context, plans Plans, sid string) (Limits, bool) {
	if p, err := plans.Read(ctx, sid); err == nil && p != nil && (p.Model != "" || p.AllowedTools != nil) {
		return LimitsOf(p.Model, p.AllowedTools), true
	}
	return Limits{}, false
}
