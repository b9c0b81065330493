package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.uber.org/zap"

	builtinskills "github.com/govibe/govibe/skills"

	"github.com/govibe/govibe/server/internal/fsatomic"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/skills"
	"github.com/govibe/govibe/server/internal/tools"
)

// The engine is the skill tools' tools.SkillHost. The catalog is loaded on
// first use and kept until trust changes or "/skills reload": the system
// prompt's skills section comes from it, so keeping it is what keeps the
// prompt prefix byte-identical across turns. Active skills are kept per
// session (session state) and per workspace (a file in the state
// directory), and named in each turn's context block.

var _ tools.SkillHost = skillHost{}

// skillHost adapts the engine to tools.SkillHost.
type skillHost struct{ e *Engine }

func (h skillHost) Catalog() *skills.Catalog { return h.e.skillCatalog() }
func (h skillHost) Active(ctx context.Context, sid string) []string {
	return h.e.ActiveSkills(ctx, sid)
}
func (h skillHost) Activate(ctx context.Context, sid, name string, workspace bool) error {
	return h.e.ActivateSkill(ctx, sid, name, workspace)
}

// skillCatalog returns the current catalog, loading it on first use.
func (e *Engine) skillCatalog() *skills.Catalog {
	e.mu.Lock()
	c, trusted := e.skills, e.trusted
	e.mu.Unlock()
	if c != nil {
		return c
	}
	c = skills.Load(skills.Dirs(e.home(), e.opts.Roots, builtinskills.FS), trusted)
	e.mu.Lock()
	if e.skills == nil {
		e.skills = c
	}
	c = e.skills
	e.mu.Unlock()
	return c
}

// resetSkills drops the catalog; the next use loads it again.
func (e *Engine) resetSkills() {
	e.mu.Lock()
	e.skills = nil
	e.mu.Unlock()
}

// ReloadSkills reads the skill folders again and reports their problems.
func (e *Engine) ReloadSkills() *skills.Catalog {
	e.resetSkills()
	e.reportSkills()
	return e.skillCatalog()
}

// reportSkills tells the user about malformed skills and those skipped
// for lack of trust.
func (e *Engine) reportSkills() {
	c := e.skillCatalog()
	for _, p := range c.Problems {
		e.log.Warn("skill problem", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
		e.notice("warning", e.tr("Skill not loaded: %s", p.Error()))
	}
	if len(c.Skipped) > 0 {
		var why []string
		for _, p := range c.Skipped {
			why = append(why, p.Error())
		}
		e.notice("info", e.tr("Skills skipped: %s", strings.Join(why, "; ")))
	}
}

// ActiveSkills are the session's active skills followed by the
// workspace's, without duplicates, in activation order.
func (e *Engine) ActiveSkills(ctx context.Context, sid string) []string {
	var out []string
	if sid != "" {
		out = append(out, sessionstate.Lookup(ctx, e.Store, sid, sessionstate.ActiveSkills)...)
	}
	for _, n := range e.workspaceSkills() {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	// A skill that left the catalog (deleted, or trust withdrawn) is no
	// longer active.
	c := e.skillCatalog()
	return slices.DeleteFunc(out, func(n string) bool { _, ok := c.Get(n); return !ok })
}

// ActivateSkill keeps a skill active for the session, or for every
// session of the workspace.
func (e *Engine) ActivateSkill(ctx context.Context, sid, name string, workspace bool) error {
	if _, ok := e.skillCatalog().Get(name); !ok {
		return fmt.Errorf("no skill named %q", name)
	}
	if workspace {
		e.mu.Lock()
		defer e.mu.Unlock()
		list := e.readWorkspaceSkills()
		if slices.Contains(list, name) {
			return nil
		}
		return e.writeWorkspaceSkills(append(list, name))
	}
	if sid == "" {
		return errors.New("no session")
	}
	list := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.ActiveSkills)
	if slices.Contains(list, name) {
		return nil
	}
	return sessionstate.Set(ctx, e.Store, sid, sessionstate.ActiveSkills, append(list, name))
}

func (e *Engine) workspaceSkillsFile() string {
	return filepath.Join(e.opts.StateDir, "active-skills.json")
}

func (e *Engine) workspaceSkills() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.readWorkspaceSkills()
}

// readWorkspaceSkills reads the workspace's active skills; e.mu is held.
// A malformed file counts as empty (and is logged): it only names skills.
func (e *Engine) readWorkspaceSkills() []string {
	data, err := os.ReadFile(e.workspaceSkillsFile())
	if err != nil {
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		e.log.Warn("active-skills.json is malformed; ignoring it", zap.Error(err))
		return nil
	}
	return list
}

// writeWorkspaceSkills replaces the file atomically; e.mu is held.
func (e *Engine) writeWorkspaceSkills(list []string) error {
	data, _ := json.Marshal(list)
	return fsatomic.WriteFile(e.workspaceSkillsFile(), data, 0o600)
}

// home is the user's home directory (Options.Home in tests).
func (e *Engine) home() string {
	if e.opts.Home != "" {
		return e.opts.Home
	}
	h, _ := os.UserHomeDir()
	return h
}
