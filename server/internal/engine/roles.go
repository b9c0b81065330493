package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/providers"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/slashcmd"
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

// commandModel resolves a custom command's `model:` to the profile its
// turn uses ("" for the session's) and a notice for the user. A name one
// of the user's profiles or models carries, or one the session's provider
// serves, is used as written. A name written for another tool (Claude
// Code's haiku or claude-3-5-haiku-20241022, Gemini's gemini-2.5-flash) is
// never sent to the provider, which would answer 404: a small model's
// name maps to the reviewer role's profile when one is configured (the
// role meant for a small, fast model), any other to the session's model,
// with a notice saying so.
func (e *Engine) commandModel(ctx context.Context, sid, name string) (profile, notice string) {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "inherit") {
		return "", ""
	}
	v := e.Settings()
	for _, mp := range config.Typed(v).ModelProfiles() {
		if mp.Name == name || mp.Model == name {
			return name, ""
		}
	}
	session := e.sessionProfile(ctx, sid)
	if session.Model == name {
		return "", ""
	}
	if pr, ok := providers.Detect(session.BaseURL); ok {
		if _, ok := pr.Model(name); ok {
			return name, ""
		}
	}
	if slashcmd.ModelTier(name) == slashcmd.TierSmall {
		if r := roleModel(v, RoleReviewer); r != "" {
			return r, e.Tr("The command asks for the model %s, which is another tool's name; its turn uses your reviewer profile %s (govibe.roles.reviewer).", name, r)
		}
	}
	return "", e.Tr("The command asks for the model %s, which none of your profiles serves; its turn uses the session's model.", name)
}
