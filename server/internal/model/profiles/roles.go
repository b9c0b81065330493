package profiles

import (
	"cmp"
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/host/config"
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

// PlanRole is the role a plan's agent of role r runs as: executor and
// evaluator have their own; any other agent is main.
func PlanRole(r scheduler.Role) string {
	switch r {
	case scheduler.RoleExecutor:
		return RoleExecutor
	case scheduler.RoleEvaluator:
		return RoleEvaluator
	}
	return RoleMain
}

// HasRole says whether role names its own profile (govibe.roles.<role>).
func (r *Resolver) HasRole(role string) bool {
	v, _ := r.o.Settings()
	return roleModel(v, role) != ""
}

// ForRole is role's profile for session sid: its own when configured,
// else main, which is the session's profile (its /model or picker
// choice), not only govibe.model.
func (r *Resolver) ForRole(ctx context.Context, sid, role string) Profile {
	if r.HasRole(role) {
		return r.Role(role)
	}
	return r.Session(ctx, sid)
}

// Role resolves role's profile: its own when configured, else the active
// one (govibe.model).
func (r *Resolver) Role(role string) Profile {
	v, keys := r.o.Settings()
	if name := roleModel(v, role); name != "" {
		return resolve(v.Merge(config.Values{"model": name}), keys)
	}
	return resolve(v, keys)
}

// Reviewer is the profile a review in session sid runs on: the review's
// own *.model setting (model) wins; then the reviewer role; then main,
// the session's model (its /model or picker choice).
func (r *Resolver) Reviewer(ctx context.Context, sid, model string) Profile {
	v, keys := r.o.Settings()
	if m := cmp.Or(model, roleModel(v, RoleReviewer)); m != "" {
		return resolve(v.Merge(config.Values{"model": m}), keys)
	}
	return r.Session(ctx, sid)
}
