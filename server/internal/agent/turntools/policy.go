package turntools

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Which tools a run offers and refuses is decided in one place,
// toolpolicy.Decide; this file only says where the run stands (its
// Situation). Tool profiles (govibe.models[].toolProfile) take tools away
// from a model profile, and the system prompt's tool guidance follows
// what is left.

// RoleTools is what an agent of role is given: every agent of a turn gets
// the same list in the same order (so tool definitions stay identical),
// and the policy (toolpolicy.Decide on the returned situation) withholds
// what its role may not use. The evaluator's shell is limited to
// read-only commands.
func (s *Service) RoleTools(ctx context.Context, t Turn, role scheduler.Role, tag string, final bool) ([]tools.Tool, toolpolicy.Situation) {
	ts := s.d.Compaction.FreeTools(t.SessionID, t.ID)
	create, complete := s.d.Plans.Tools(t.SessionID, t.ID, t.Text, role, tag, s.mode(ctx, t).Mode() == modes.Plan)
	ts = append(ts, create, complete)
	ts = append(ts, s.d.Subagents(ctx, t.SessionID)...)
	ts = append(ts, s.d.Browser())
	ts = append(ts, s.d.MCP(ctx, t.Limits.Allowed)...)
	if role == scheduler.RoleEvaluator {
		for i, x := range ts {
			if x.Name() == scheduler.ToolShell {
				ts[i] = planrun.EvaluatorShell(x, s.d.Roots)
			}
		}
	}
	ts = s.d.Hooks.WithHooks(ts)
	return ts, s.situation(ctx, t, role, final, ts)
}

// FreeRun is what the session's free run in turn t is given: its tools
// (with the mode's report tools and guards), where it stands (role,
// mode and phase) and the policy's decision. The run, a compaction
// request and the context-use estimate all build from it, so they agree
// byte for byte.
func (s *Service) FreeRun(ctx context.Context, t Turn) ([]tools.Tool, toolpolicy.Situation, toolpolicy.Decision) {
	ts, sit := s.RoleTools(ctx, t, scheduler.RoleFree, s.d.FreeTag, false)
	md := s.mode(ctx, t)
	ts = md.Tools(ctx, ts)
	sit.Mode, sit.Phase = md.Where(ctx)
	return ts, sit, toolpolicy.Decide(sit, ts)
}

// Prompt is the system prompt of a run in sit with decision d: its
// contract and guidance name only the tools d offers.
func (s *Service) Prompt(sid string, sit toolpolicy.Situation, d toolpolicy.Decision) string {
	return s.d.Prompt(sid, sit, d.Prompted)
}

// FreePrompt is the system prompt of the session's free runs, which a
// compaction request must repeat byte for byte.
func (s *Service) FreePrompt(ctx context.Context, sid string) string {
	_, sit, d := s.FreeRun(ctx, s.d.Live(sid))
	return s.Prompt(sid, sit, d)
}

// FreeRequest is what the session's free run sends now: its system
// prompt and the tools of its requests, or none when the turn's model
// calls tools in text (text: that protocol sends no tool definitions).
func (s *Service) FreeRequest(ctx context.Context, sid string) (system string, ts []tools.Tool, text bool) {
	system, t := s.FreePrompt(ctx, sid), s.d.Live(sid)
	if s.d.Profiles.ToolCalling(s.d.Profiles.Turn(ctx, sid, t.Limits.Model)) == "text" {
		return system, nil, true
	}
	ts, _, d := s.FreeRun(ctx, t)
	return system, d.Request(ts), false
}

// Live stands for the session's running turn where only its limits
// matter (a compaction's policy and prefix, the context estimate): a
// custom command's model and allowedTools while it runs, the session's
// own otherwise.
func (s *Service) Live(sid string) Turn { return s.d.Live(sid) }

// Offered names the model and the tools the session's free run offers:
// the same list its requests carry (or, in the text tool-call protocol,
// its system prompt describes), each deferred tool after the entry that
// runs it (tools.Offer), so a headless transcript's init line cannot
// drift from what the model may call. The session's latest turn counts,
// running or ended: a custom command's model and allowedTools hold for
// the turn it started.
func (s *Service) Offered(ctx context.Context, sid string) (model string, names []string) {
	t := s.d.Latest(sid)
	ts, sit := s.RoleTools(ctx, t, scheduler.RoleFree, s.d.FreeTag, false)
	d := toolpolicy.Decide(sit, ts)
	for _, x := range d.Request(ts) {
		names = append(names, x.Name())
		if x.Name() == tools.DeferredEntryName {
			for _, y := range d.Offered(ts) {
				if d.Deferred[y.Name()] {
					names = append(names, y.Name())
				}
			}
		}
	}
	return s.d.Profiles.Turn(ctx, t.SessionID, t.Limits.Model).Model, names
}

// mode is turn t's view of the session's mode: the one Send loaded, or,
// for a session with no turn running (a compaction's prefix, the context
// estimate), the mode read now.
func (s *Service) mode(ctx context.Context, t Turn) moderun.Turn {
	if t.Mode.Loaded() {
		return t.Mode
	}
	return s.d.Modes(ctx, t.SessionID)
}

// situation is where an agent of role in turn t stands, without the
// session's mode (which narrows only the free run: FreeRun adds it). ts
// are the tools it is given, for the unknown-name warning.
func (s *Service) situation(ctx context.Context, t Turn, role scheduler.Role, final bool, ts []tools.Tool) toolpolicy.Situation {
	p := s.d.Profiles.ForRole(ctx, t.SessionID, profiles.PlanRole(role))
	tp := s.toolProfile(p)
	s.reportUnknownTools(p, tp, ts)
	return toolpolicy.Situation{
		Role: policyRole(role), Final: final, Profile: tp, Command: t.Limits.Command(), BTW: t.BTW,
		Sandbox: s.d.Settings().Sandbox.Enabled, Headless: s.d.NoEditor,
	}
}

// toolProfile parses p's tool profile. A malformed one is reported once
// and read as full: taking every tool away over a typo would leave the
// model unable to work and the user unable to see why.
func (s *Service) toolProfile(p profiles.Profile) toolpolicy.Profile {
	tp, err := toolpolicy.ParseProfile(p.ToolProfile)
	if err != nil && s.reported.first(p.Name+"\x00"+p.ToolProfile) {
		s.d.Notice("warning", s.d.Tr("Model profile %s: %s. All tools are offered.", p.Name, err.Error()))
	}
	return tp
}

// reportUnknownTools says once which names of an explicit list no tool
// has (toolpolicy ignores a list that names none of them).
func (s *Service) reportUnknownTools(p profiles.Profile, tp toolpolicy.Profile, ts []tools.Tool) {
	if tp.Kind != toolpolicy.ProfileList {
		return
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	unknown := tp.Unknown(names)
	if len(unknown) > 0 && s.reported.first(p.Name+"\x00"+strings.Join(unknown, ",")) {
		s.d.Notice("warning", s.d.Tr("Model profile %s names tools GoVibe does not have: %s.", p.Name, strings.Join(unknown, ", ")))
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
