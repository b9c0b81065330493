package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/util/fsatomic"
	"github.com/govibe/govibe/server/internal/util/lazyload"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Manager is the skills capability of one engine: the catalog, loaded on
// first use and kept until trust changes or "/skills reload" (the system
// prompt's skills section comes from it, so keeping it is what keeps the
// prompt prefix byte-identical across turns), and the active skills, kept
// per session (session state) and per workspace (a file in the state
// directory) and named in each turn's context block. It implements the
// skill tools' tools.SkillHost. Safe for concurrent use.
type Manager struct {
	o       ManagerOptions
	catalog *lazyload.Loader[*Catalog]

	// mu guards the workspace file's read-modify-write.
	mu sync.Mutex
}

// ManagerOptions are what the manager needs from the engine.
type ManagerOptions struct {
	// Home is the user's home directory; Roots the workspace roots.
	Home  string
	Roots []string
	// Builtin holds the skills shipped with GoVibe.
	Builtin fs.FS
	// StateDir holds active-skills.json, the workspace's active skills.
	StateDir string
	// Trusted is the workspace's current trust.
	Trusted func() bool
	// State is the store's session state.
	State sessionstate.KV
	// Notice tells the user something (level info|warning); Tr translates
	// what it says.
	Notice func(level, msg string)
	Tr     func(msg string, args ...any) string
	Log    *zap.Logger
}

// NewManager returns a manager; nothing is loaded until first use.
func NewManager(o ManagerOptions) *Manager {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	m := &Manager{o: o}
	m.catalog = lazyload.New(lazyload.Options[*Catalog]{Load: func() *Catalog {
		return Load(Dirs(m.o.Home, m.o.Roots, m.o.Builtin), m.o.Trusted())
	}})
	return m
}

// Catalog returns the current catalog, loading it on first use.
func (m *Manager) Catalog() *Catalog { return m.catalog.Get() }

// Reset drops the catalog; the next use loads it again (under the trust
// of that moment).
func (m *Manager) Reset() { m.catalog.Reset() }

// Reload reads the skill folders again and reports their problems.
func (m *Manager) Reload() *Catalog {
	m.Reset()
	m.Report()
	return m.Catalog()
}

// Report tells the user about malformed skills and those skipped for lack
// of trust.
func (m *Manager) Report() {
	c := m.Catalog()
	for _, p := range c.Problems {
		m.o.Log.Warn("skill problem", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
		m.o.Notice("warning", m.o.Tr("Skill not loaded: %s", p.Error()))
	}
	if len(c.Skipped) > 0 {
		var why []string
		for _, p := range c.Skipped {
			why = append(why, p.Error())
		}
		m.o.Notice("info", m.o.Tr("Skills skipped: %s", strings.Join(why, "; ")))
	}
}

// Active are the session's active skills followed by the workspace's,
// without duplicates, in activation order.
func (m *Manager) Active(ctx context.Context, sid string) []string {
	var out []string
	if sid != "" {
		out = append(out, sessionstate.Lookup(ctx, m.o.State, sid, sessionstate.ActiveSkills)...)
	}
	for _, n := range m.workspaceSkills() {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	// A skill that left the catalog (deleted, or trust withdrawn) is no
	// longer active.
	c := m.Catalog()
	return slices.DeleteFunc(out, func(n string) bool { _, ok := c.Get(n); return !ok })
}

// Activate keeps a skill active for the session, or for every session of
// the workspace.
func (m *Manager) Activate(ctx context.Context, sid, name string, workspace bool) error {
	if _, ok := m.Catalog().Get(name); !ok {
		return fmt.Errorf("no skill named %q", name)
	}
	if workspace {
		m.mu.Lock()
		defer m.mu.Unlock()
		list := m.readWorkspaceSkills()
		if slices.Contains(list, name) {
			return nil
		}
		return m.writeWorkspaceSkills(append(list, name))
	}
	if sid == "" {
		return errors.New("no session")
	}
	list := sessionstate.Lookup(ctx, m.o.State, sid, sessionstate.ActiveSkills)
	if slices.Contains(list, name) {
		return nil
	}
	return sessionstate.Set(ctx, m.o.State, sid, sessionstate.ActiveSkills, append(list, name))
}

// Deactivate removes a skill from the session's and the workspace's
// active lists: after it the skill no longer applies to the session's
// turns, whichever way it was activated. Unknown names are not an error
// (a deleted skill may still be listed as active in old state).
func (m *Manager) Deactivate(ctx context.Context, sid, name string) error {
	if sid != "" {
		list := sessionstate.Lookup(ctx, m.o.State, sid, sessionstate.ActiveSkills)
		if i := slices.Index(list, name); i >= 0 {
			if err := sessionstate.Set(ctx, m.o.State, sid, sessionstate.ActiveSkills, slices.Delete(list, i, i+1)); err != nil {
				return err
			}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.readWorkspaceSkills()
	if i := slices.Index(list, name); i >= 0 {
		return m.writeWorkspaceSkills(slices.Delete(list, i, i+1))
	}
	return nil
}

// Entry is one catalog skill as the chat's skills picker shows it.
type Entry struct {
	Name, Description, Source string
	Active                    bool
	// Scope is where it was activated: "session" or "workspace" ("" when
	// inactive). A skill active in both counts as the session's.
	Scope string
}

// Entries lists the catalog in its stable order with the session's active
// skills marked.
func (m *Manager) Entries(ctx context.Context, sid string) []Entry {
	var sess []string
	if sid != "" {
		sess = sessionstate.Lookup(ctx, m.o.State, sid, sessionstate.ActiveSkills)
	}
	ws := m.workspaceSkills()
	c := m.Catalog()
	out := make([]Entry, 0, len(c.Names()))
	for _, n := range c.Names() {
		s, _ := c.Get(n)
		en := Entry{Name: n, Description: s.Description, Source: string(s.Source)}
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

func (m *Manager) workspaceSkillsFile() string {
	return filepath.Join(m.o.StateDir, "active-skills.json")
}

func (m *Manager) workspaceSkills() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.readWorkspaceSkills()
}

// readWorkspaceSkills reads the workspace's active skills; m.mu is held.
// A malformed file counts as empty (and is logged): it only names skills.
func (m *Manager) readWorkspaceSkills() []string {
	data, err := safefile.ReadFile(m.workspaceSkillsFile(), maxActiveFile)
	if err != nil {
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		m.o.Log.Warn("active-skills.json is malformed; ignoring it", zap.Error(err))
		return nil
	}
	return list
}

// writeWorkspaceSkills replaces the file atomically; m.mu is held.
func (m *Manager) writeWorkspaceSkills(list []string) error {
	data, _ := json.Marshal(list)
	return fsatomic.WriteFile(m.workspaceSkillsFile(), data, 0o600)
}

// AdoptWorkspaceSkills adds the workspace skills the state directory dir
// (an old storage slot) kept active to this workspace's list.
func (m *Manager) AdoptWorkspaceSkills(dir string) error {
	data, err := safefile.ReadFile(filepath.Join(dir, "active-skills.json"), maxActiveFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var theirs []string
	if err := json.Unmarshal(data, &theirs); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "active-skills.json"), err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.readWorkspaceSkills()
	added := false
	for _, n := range theirs {
		if !slices.Contains(list, n) {
			list = append(list, n)
			added = true
		}
	}
	if !added {
		return nil
	}
	return m.writeWorkspaceSkills(list)
}

// maxActiveFile bounds the read of the workspace's active-skills file: a FIFO or a device in its place is
// refused by kind, never waited on or read without end (issue 31).
const maxActiveFile = 1 << 20
