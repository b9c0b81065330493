package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// Model roles. Each may name its own profile (govibe.roles.<role>); a role
// without one uses main, the session's profile (govibe.model).
const (
	RoleMain         = "main"
	RoleExecutor     = "executor"
	RoleEvaluator    = "evaluator"
	RoleReviewer     = "reviewer"
	RoleInvestigator = "investigator"
	RoleCompaction   = "compaction"
	RoleTitle        = "title"
)

// roleModel is the profile name configured for role, "" for main.
func roleModel(v config.Values, role string) string {
	r := config.Typed(v).Roles
	switch role {
	case RoleExecutor:
		return r.Executor
	case RoleEvaluator:
		return r.Evaluator
	case RoleReviewer:
		return r.Reviewer
	case RoleInvestigator:
		return r.Investigator
	case RoleCompaction:
		return r.Compaction
	case RoleTitle:
		return r.Title
	}
	return ""
}

// subagentRole maps a sub-agent definition's name to its role, so an
// "executor" agent runs on roles.executor's profile.
func subagentRole(name string) string {
	n := strings.ToLower(name)
	for _, r := range []string{RoleExecutor, RoleEvaluator, RoleInvestigator, RoleReviewer} {
		if strings.Contains(n, r) {
			return r
		}
	}
	return RoleMain
}

// roleProfileFor is role's profile for session sid: its own when
// configured, else main, which is the session's profile (its /model or
// picker choice), not only govibe.model.
func (e *Engine) roleProfileFor(ctx context.Context, sid, role string) Profile {
	if roleModel(e.Settings(), role) != "" {
		return e.roleProfile(role)
	}
	return e.sessionProfile(ctx, sid)
}

// roleProfile resolves role's profile: its own when configured, else the
// active one (govibe.model).
func (e *Engine) roleProfile(role string) Profile {
	e.mu.Lock()
	v, keys := e.settings, e.apiKeys
	e.mu.Unlock()
	if name := roleModel(v, role); name != "" {
		return resolveProfile(v.Merge(config.Values{"model": name}), keys)
	}
	return resolveProfile(v, keys)
}

// sessionProfile is the active profile with the session's /model choice.
func (e *Engine) sessionProfile(ctx context.Context, sid string) Profile {
	name := ""
	if sid != "" {
		name = sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Model)
	}
	return e.namedProfile(name)
}

// turnProfile is the session's profile, or the one the turn's custom
// command names in its frontmatter.
func (e *Engine) turnProfile(ctx context.Context, t *turn) Profile {
	if t.limits.Model != "" {
		return e.namedProfile(t.limits.Model)
	}
	return e.sessionProfile(ctx, t.sessionID)
}

// namedProfile resolves a profile or model name ("" is the active one).
func (e *Engine) namedProfile(name string) Profile {
	if name == "" {
		return e.profile()
	}
	e.mu.Lock()
	v, keys := e.settings, e.apiKeys
	e.mu.Unlock()
	o := make(map[string]any, len(v)+1)
	for k, x := range v {
		o[k] = x
	}
	o["model"] = name
	return resolveProfile(o, keys)
}
