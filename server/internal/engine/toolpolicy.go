package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/profiles"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/toolpolicy"
	"github.com/govibe/govibe/server/internal/tools"
)

// Which tools a run offers and refuses is decided in one place,
// toolpolicy.Decide; the engine only says where the run stands (its
// Situation). Tool profiles (govibe.models[].toolProfile) take tools away
// from a model profile, and the system prompt's tool guidance follows
// what is left. Everything here depends only on the profile and the tool
// list, so a session's prompt and tool definitions stay byte-identical
// while its profile does.

// toolProfileOf parses p's tool profile. A malformed one is reported once
// and read as full: taking every tool away over a typo would leave the
// model unable to work and the user unable to see why.
func (e *Engine) toolProfileOf(p Profile) toolpolicy.Profile {
	tp, err := toolpolicy.ParseProfile(p.ToolProfile)
	if err != nil && e.reported.first("toolProfile\x00"+p.Name+"\x00"+p.ToolProfile) {
		e.notice("warning", e.Tr("Model profile %s: %s. All tools are offered.", p.Name, err.Error()))
	}
	return tp
}

// reportUnknownTools says once which names of an explicit list no tool
// has (toolpolicy ignores a list that names none of them).
func (e *Engine) reportUnknownTools(p Profile, tp toolpolicy.Profile, ts []tools.Tool) {
	if tp.Kind != toolpolicy.ProfileList {
		return
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	unknown := tp.Unknown(names)
	if len(unknown) > 0 && e.reported.first("toolProfile\x00"+p.Name+"\x00"+strings.Join(unknown, ",")) {
		e.notice("warning", e.Tr("Model profile %s names tools GoVibe does not have: %s.", p.Name, strings.Join(unknown, ", ")))
	}
}

// policyRole is the scheduler role's place in the tool policy.
func policyRole(r scheduler.Role) toolpolicy.Role {
	switch r {
	case scheduler.RoleExecutor:
		return toolpolicy.Executor
	case scheduler.RoleEvaluator:
		return toolpolicy.Evaluator
	}
	return toolpolicy.Main
}

// situation is where an agent of role in turn t stands, without the
// session's mode (which narrows only the free run: newRun adds it). ts
// are the tools it is given, for the unknown-name warning.
func (e *Engine) situation(ctx context.Context, t *turn, role scheduler.Role, final bool, ts []tools.Tool) toolpolicy.Situation {
	p := e.Profiles.ForRole(ctx, t.sessionID, profiles.PlanRole(role))
	tp := e.toolProfileOf(p)
	e.reportUnknownTools(p, tp, ts)
	return toolpolicy.Situation{
		Role: policyRole(role), Final: final, Profile: tp, Command: t.limits.Command(), BTW: t.btw,
		Sandbox: config.Typed(e.Settings()).Sandbox.Enabled, Headless: e.opts.Host == nil,
	}
}

// promptFor is the system prompt of a run in sit with decision d: its
// contract and guidance name only the tools d offers.
func (e *Engine) promptFor(sid string, sit toolpolicy.Situation, d toolpolicy.Decision) string {
	return e.systemPromptOf(sid, sit, d.Prompted)
}

// freeRun is what the session's free run in turn t is given: its tools
// (with the mode's report tools and guards), where it stands (role,
// mode and phase) and the policy's decision. The run, a compaction
// request and the context-use estimate all build from it, so they agree
// byte for byte.
func (e *Engine) freeRun(ctx context.Context, t *turn) ([]tools.Tool, toolpolicy.Situation, toolpolicy.Decision) {
	ts, sit := e.roleTools(ctx, t, scheduler.RoleFree, TagFree, false)
	md := e.modeOf(ctx, t)
	ts = md.Tools(ctx, ts)
	sit.Mode, sit.Phase = md.Where(ctx)
	return ts, sit, toolpolicy.Decide(sit, ts)
}

// freePrompt is the system prompt of the session's free runs, which a
// compaction request must repeat byte for byte.
func (e *Engine) freePrompt(ctx context.Context, sid string) string {
	_, sit, d := e.freeRun(ctx, e.liveTurn(sid))
	return e.promptFor(sid, sit, d)
}
