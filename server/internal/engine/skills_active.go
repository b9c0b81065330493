package engine

import (
	"context"
	"slices"

	"github.com/govibe/govibe/server/internal/sessionstate"
)

// SkillEntry is one catalog skill as the chat's skills picker shows it.
type SkillEntry struct {
	Name, Description, Source string
	Active                    bool
	// Scope is where it was activated: "session" or "workspace" ("" when
	// inactive). A skill active in both counts as the session's.
	Scope string
}

// SkillEntries lists the catalog in its stable order with the session's
// active skills marked.
func (e *Engine) SkillEntries(ctx context.Context, sid string) []SkillEntry {
	var sess []string
	if sid != "" {
		sess = sessionstate.Lookup(ctx, e.Store, sid, sessionstate.ActiveSkills)
	}
	ws := e.workspaceSkills()
	c := e.skillCatalog()
	out := make([]SkillEntry, 0, len(c.Names()))
	for _, n := range c.Names() {
		s, _ := c.Get(n)
		en := SkillEntry{Name: n, Description: s.Description, Source: string(s.Source)}
		switch {
		case slices.Contains(sess, n):
			en.Active, en.Scope = true, "session"
		case slices.Contains(ws, n):
			en.Active, en.Scope = true, "workspace"
		}
		out = append(out, en)
	}
	return out
}

// DeactivateSkill removes a skill from the session's and the workspace's
// active lists: after it the skill no longer applies to the session's
// turns, whichever way it was activated. Unknown names are not an error
// (a deleted skill may still be listed as active in old state).
func (e *Engine) DeactivateSkill(ctx context.Context, sid, name string) error {
	if sid != "" {
		list := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.ActiveSkills)
		if i := slices.Index(list, name); i >= 0 {
			if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.ActiveSkills, slices.Delete(list, i, i+1)); err != nil {
				return err
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	list := e.readWorkspaceSkills()
	if i := slices.Index(list, name); i >= 0 {
		return e.writeWorkspaceSkills(slices.Delete(list, i, i+1))
	}
	return nil
}
