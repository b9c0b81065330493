package profiles

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/providers"
)

// A `model:` written in a custom command or an agent file is usually
// another tool's: Claude Code's aliases (haiku, sonnet, opus, inherit) and
// ids (claude-3-5-haiku-20241022), Gemini's (gemini-2.5-flash). GoVibe
// talks to the user's own providers, so such a name is never sent as it
// is (a real endpoint would answer 404). It is used as written only when
// one of the user's profiles or models, or the session's provider, knows
// it; otherwise it maps to the role its tier fits, or is ignored with a
// notice.

// modelUse is what a written model name resolves to.
type modelUse int

const (
	// useDefault: the caller's own default (no name, or a name that fits
	// nothing and is ignored).
	useDefault modelUse = iota
	// useSession: the session's own profile (the parent's for an agent):
	// "inherit", the session's model itself, or another tool's large
	// model (sonnet, opus), for which the main model is the one that fits.
	useSession
	// useProfile: one of the user's profiles or models, by name.
	useProfile
	// useRole: a role's profile (a small model's name and a role meant
	// for a small, fast model).
	useRole
)

// writtenModel is the resolution of one written model name.
type writtenModel struct {
	use     modelUse
	profile string // useProfile: the name; useRole: the role's profile
	role    string // useRole
	// foreign: the name is another tool's, so the user is told what ran.
	foreign bool
}

// smallRoles are the roles configured for a small, fast model, in the
// order a small model's name takes them.
var smallRoles = []string{RoleReviewer, RoleTitle}

// written resolves name for session sid.
func (r *Resolver) written(ctx context.Context, sid, name string) writtenModel {
	name = strings.TrimSpace(name)
	if name == "" {
		return writtenModel{}
	}
	if strings.EqualFold(name, "inherit") {
		return writtenModel{use: useSession}
	}
	v, _ := r.o.Settings()
	for _, mp := range config.Typed(v).ModelProfiles() {
		if mp.Name == name || mp.Model == name {
			return writtenModel{use: useProfile, profile: name}
		}
	}
	session := r.Session(ctx, sid)
	if session.Model == name {
		return writtenModel{use: useSession}
	}
	if pr, ok := providers.Detect(session.BaseURL); ok {
		if _, ok := pr.Model(name); ok {
			return writtenModel{use: useProfile, profile: name}
		}
	}
	if slashcmd.ModelTier(name) == slashcmd.TierSmall {
		for _, role := range smallRoles {
			if p := roleModel(v, role); p != "" {
				return writtenModel{use: useRole, role: role, profile: p, foreign: true}
			}
		}
		return writtenModel{foreign: true}
	}
	return writtenModel{use: useSession, foreign: true}
}

// Command resolves a custom command's `model:` to the profile its turn
// uses ("" for the session's) and a notice for the user.
func (r *Resolver) Command(ctx context.Context, sid, name string) (profile, notice string) {
	w := r.written(ctx, sid, name)
	switch {
	case w.use == useProfile:
		return w.profile, ""
	case w.use == useRole:
		return w.profile, r.o.Tr("The command asks for the model %s, which is another tool's name; its turn uses your %s profile %s (govibe.roles.%s).", name, w.role, w.profile, w.role)
	case w.foreign:
		return "", r.o.Tr("The command asks for the model %s, which none of your profiles serves; its turn uses the session's model.", name)
	}
	return "", ""
}

// Subagent is the profile a sub-agent runs on: its role's (the
// default), or what its definition's `model:` resolves to. A name written
// for another tool is told once per session, saying what ran instead.
func (r *Resolver) Subagent(ctx context.Context, parent, agent, model string) Profile {
	def := r.ForRole(ctx, parent, subagentRole(agent))
	w := r.written(ctx, parent, model)
	var p Profile
	var note string
	switch w.use {
	case useProfile:
		return r.Named(w.profile)
	case useSession:
		p = r.Session(ctx, parent)
		note = r.o.Tr("The agent %s asks for the model %s, which is another tool's name; it runs on the session's model %s.", agent, model, p.Model)
	case useRole:
		p = r.Role(w.role)
		note = r.o.Tr("The agent %s asks for the model %s, which is another tool's name; it runs on your %s profile %s (govibe.roles.%s).", agent, model, w.role, w.profile, w.role)
	default:
		p = def
		note = r.o.Tr("The agent %s asks for the model %s, which none of your profiles serves; it runs on %s.", agent, model, p.Model)
	}
	if w.foreign && r.first(parent+"\x00"+agent+"\x00"+model) {
		r.o.Notice(parent, note)
	}
	return p
}
