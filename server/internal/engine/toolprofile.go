package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/tools"
)

// Tool profiles (govibe.models[].toolProfile) take tools away from a
// model profile: they join the run's Blocked map, so a left-out tool is
// neither offered nor run, and the system prompt's tool guidance follows
// what is left. Everything here depends only on the profile and the tool
// list, so a session's prompt and tool definitions stay byte-identical
// while its profile does.

// toolProfileOf parses p's tool profile. A malformed one is reported once
// and read as full: taking every tool away over a typo would leave the
// model unable to work and the user unable to see why.
func (e *Engine) toolProfileOf(p Profile) agent.ToolProfile {
	tp, err := agent.ParseToolProfile(p.ToolProfile)
	if err != nil && e.reported.first("toolProfile\x00"+p.Name+"\x00"+p.ToolProfile) {
		e.notice("warning", e.tr("Model profile %s: %s. All tools are offered.", p.Name, err.Error()))
	}
	return tp
}

// blockByToolProfile adds every tool p's tool profile leaves out to
// blocked. Names in an explicit list that no tool has are reported once;
// when none of the names is a tool, the list is ignored (every tool is
// offered) rather than leaving the model with none.
func (e *Engine) blockByToolProfile(p Profile, ts []tools.Tool, blocked map[string]string) {
	tp := e.toolProfileOf(p)
	if !tp.Restricted() {
		return
	}
	if tp.Kind == agent.ToolProfileList {
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = t.Name()
		}
		unknown := tp.Unknown(names)
		if len(unknown) > 0 && e.reported.first("toolProfile\x00"+p.Name+"\x00"+strings.Join(unknown, ",")) {
			e.notice("warning", e.tr("Model profile %s names tools GoVibe does not have: %s.", p.Name, strings.Join(unknown, ", ")))
		}
		if len(unknown) == len(tp.Names) {
			return
		}
	}
	why := "not offered by this model's tool profile (" + tp.String() + ")"
	for _, t := range ts {
		if !tp.Allows(t.Name(), t.ReadOnly()) {
			if _, already := blocked[t.Name()]; !already {
				blocked[t.Name()] = why
			}
		}
	}
}

// promptFor is the system prompt of a run offering ts minus blocked under
// p: the shared prompt for the full profile, else one whose guidance
// names only the offered tools.
func (e *Engine) promptFor(p Profile, ts []tools.Tool, blocked map[string]string) string {
	if !e.toolProfileOf(p).Restricted() {
		return e.systemPrompt()
	}
	offered := make([]string, 0, len(ts))
	for _, t := range ts {
		if _, no := blocked[t.Name()]; !no {
			offered = append(offered, t.Name())
		}
	}
	return e.systemPromptWith(offered)
}

// freePrompt is the system prompt of the session's free runs, which a
// compaction request must repeat byte for byte.
func (e *Engine) freePrompt(ctx context.Context, sid string) string {
	t := e.liveTurn(sid)
	ts, blocked := e.roleTools(ctx, t, scheduler.RoleFree, TagFree, false)
	return e.promptFor(e.turnProfile(ctx, t), ts, blocked)
}

// agentProfile is the profile an agent of role runs on in session sid:
// the role's own (govibe.roles.*) when set, else the session's.
func (e *Engine) agentProfile(ctx context.Context, sid string, role scheduler.Role) Profile {
	r := RoleMain
	switch role {
	case scheduler.RoleExecutor:
		r = RoleExecutor
	case scheduler.RoleEvaluator:
		r = RoleEvaluator
	}
	if r != RoleMain && roleModel(e.Settings(), r) != "" {
		return e.roleProfile(r)
	}
	return e.sessionProfile(ctx, sid)
}
