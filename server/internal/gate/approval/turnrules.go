package approval

import (
	"context"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Two grants hold for less than a session, as in Claude Code:
//
//   - A custom command's allowed-tools patterns (`Bash(git add:*)`) are
//     allow rules for the turn the command starts (Turn.AllowRules).
//     They rank as allow rules, below every deny and ask rule, and never
//     speak for a dangerous command (only a user's exact rule does).
//   - A PreToolUse hook's permissionDecision for one call
//     (tools.HookDecisionOf): allow stands in for the confirmation where
//     no rule decided, ask asks even where an allow rule, a setting or
//     --approve would not. Neither overrides a deny or ask rule, the
//     dangerous-command refusal, a protected path or the sandbox.

// SourceCommand marks an allow rule a custom command's allowed-tools
// granted for its turn (permission.Rule.Source).
const SourceCommand = "command"

// evaluate is Approvals.evaluate with the turn's command rules added
// to the allow list (a Bash line they and the user's rules cover
// together is allowed, as one list would).
func (a *Approver) evaluate(ws shellcheck.Workspace, act permission.Action) (permission.Decision, string) {
	if len(a.t.AllowRules) == 0 {
		return a.x.evaluate(ws, act)
	}
	p, _ := a.x.permissionPolicy(ws)
	for _, s := range a.t.AllowRules {
		if r, err := permission.Parse(s); err == nil {
			r.Source = SourceCommand
			p.Allow = append(p.Allow, r)
		}
	}
	return decided(p.Evaluate(act))
}

// hookAsk is why a PreToolUse hook wants a person to confirm this call
// ("" when it does not).
func hookAsk(ctx context.Context) string {
	if d, ok := tools.HookDecisionOf(ctx); ok && d.Decision == tools.HookAsk {
		why := "a PreToolUse hook asks for confirmation"
		if r := strings.TrimSpace(d.Reason); r != "" {
			why += ": " + r
		}
		return why
	}
	return ""
}

// hookAllow is the approval a PreToolUse hook gave this call, when it
// allowed it and no rule decided (verdict None); nil otherwise.
func hookAllow(ctx context.Context, v permission.Verdict) *tools.AutoApproval {
	if d, ok := tools.HookDecisionOf(ctx); ok && d.Decision == tools.HookAllow && v == permission.None {
		return &tools.AutoApproval{By: tools.AutoByHook, Detail: clipDetail(d.Source)}
	}
	return nil
}

func clipDetail(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// ruleDetail names an allow rule for the card; a command's rule says so.
func ruleDetail(r permission.Rule) string {
	if r.Source == SourceCommand {
		return fmt.Sprintf("%s (the command's allowed-tools)", r.String())
	}
	return r.String()
}
