package tools

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/agent/skills"
)

// SkillHost gives the skill tools the session's catalog and active set.
// Implementations must be safe for concurrent use.
type SkillHost interface {
	Catalog() *skills.Catalog
	Active(ctx context.Context, sessionID string) []string
	Activate(ctx context.Context, sessionID, name string, workspace bool) error
}

var (
	//go:embed descriptions/list_skills.md
	listSkillsDesc string
	//go:embed descriptions/load_skill.md
	loadSkillDesc string
	//go:embed descriptions/read_skill_file.md
	readSkillFileDesc string
	//go:embed descriptions/activate_skill.md
	activateSkillDesc string
)

type skillNameArgs struct {
	Name string `json:"name" jsonschema:"required" jsonschema_description:"The skill's name, as list_skills shows it."`
}

type skillFileArgs struct {
	Name string `json:"name" jsonschema:"required" jsonschema_description:"The skill's name."`
	Path string `json:"path" jsonschema:"required" jsonschema_description:"File path relative to the skill folder, as load_skill lists it."`
}

type activateSkillArgs struct {
	Name  string `json:"name" jsonschema:"required" jsonschema_description:"The skill's name."`
	Scope string `json:"scope,omitempty" jsonschema:"enum=session,enum=workspace" jsonschema_description:"session (default) or workspace."`
}

// ListSkills, LoadSkill, ReadSkillFile and ActivateSkill are the skill
// tools; all but activate_skill are read-only.
func ListSkills() Tool {
	return &define[noArgs]{name: "list_skills", desc: listSkillsDesc, traits: Catalog | Deferred,
		defaults: func() noArgs { return noArgs{} }, run: runListSkills}
}

func LoadSkill() Tool {
	return &define[skillNameArgs]{name: LoadSkillName, desc: loadSkillDesc, traits: Catalog | Deferred,
		defaults: func() skillNameArgs { return skillNameArgs{} }, run: runLoadSkill}
}

func ReadSkillFile() Tool {
	return &define[skillFileArgs]{name: "read_skill_file", desc: readSkillFileDesc, traits: Catalog | Deferred,
		defaults: func() skillFileArgs { return skillFileArgs{} }, run: runReadSkillFile}
}

func ActivateSkill() Tool {
	return &define[activateSkillArgs]{name: "activate_skill", desc: activateSkillDesc, traits: Catalog | Deferred,
		defaults: func() activateSkillArgs { return activateSkillArgs{Scope: "session"} }, run: runActivateSkill}
}

func skillCatalog(env *Env) (*skills.Catalog, *Result) {
	if env.Skills == nil || env.Skills.Catalog() == nil {
		r := FailShown("Skills are not available in this session.", env.Tr("Skills are not available in this session."))
		return nil, &r
	}
	return env.Skills.Catalog(), nil
}

func findSkill(env *Env, name string) (*skills.Skill, *Result) {
	c, fail := skillCatalog(env)
	if fail != nil {
		return nil, fail
	}
	s, ok := c.Get(name)
	if !ok {
		r := FailShown(fmt.Sprintf("No skill named %q. Available: %s.", name, strings.Join(c.Names(), ", ")), env.Tr("No skill named %s.", name))
		return nil, &r
	}
	return s, nil
}

func runListSkills(ctx context.Context, env *Env, _ noArgs) (Result, error) {
	c, fail := skillCatalog(env)
	if fail != nil {
		return *fail, nil
	}
	active := map[string]bool{}
	for _, n := range env.Skills.Active(ctx, env.SessionID) {
		active[n] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d skills:\n", len(c.Names()))
	for _, n := range c.Names() {
		s, _ := c.Get(n)
		mark := ""
		if active[n] {
			mark = " [active]"
		}
		fmt.Fprintf(&b, "- %s (%s)%s: %s\n", n, s.Source, mark, s.Description)
	}
	return Result{OK: true, Output: strings.TrimRight(b.String(), "\n"), Meta: c.Names()}, nil
}

func runLoadSkill(ctx context.Context, env *Env, a skillNameArgs) (Result, error) {
	s, fail := findSkill(env, a.Name)
	if fail != nil {
		return *fail, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<skill name=%q source=%q>\n%s\n</skill>\n", s.Name, s.Source, s.Instruction)
	if len(s.SubSkills) > 0 {
		fmt.Fprintf(&b, "Sub-skills (load them when the instruction calls for them): %s\n", strings.Join(s.SubSkills, ", "))
	}
	if len(s.AllowedTools) > 0 {
		fmt.Fprintf(&b, "Tools this skill expects: %s\n", strings.Join(s.AllowedTools, ", "))
	}
	if dir := s.Folder(); dir != "" {
		// The body's commands (python scripts/x.py) are relative to the
		// skill's folder, as the tools the skills come from run them.
		fmt.Fprintf(&b, "Skill folder: %s\nPaths in the instruction are relative to this folder: run a script by its full path (for example python %s), or with run_shell_command's cwd set to the folder when it is inside the workspace.\n",
			dir, filepath.Join(dir, "scripts", "x.py"))
	} else {
		b.WriteString("This skill is built into GoVibe: read its files with read_skill_file; it has no folder to run scripts from.\n")
	}
	files, truncated := s.Files()
	if len(files) > 0 {
		fmt.Fprintf(&b, "Files (read with read_skill_file): %s", strings.Join(files, ", "))
		if truncated {
			b.WriteString(", … (more not listed)")
		}
		b.WriteString("\n")
	}
	return Result{OK: true, Output: strings.TrimRight(b.String(), "\n"), Meta: map[string]any{"skill": s.Name, "source": s.Source}}, nil
}

func runReadSkillFile(ctx context.Context, env *Env, a skillFileArgs) (Result, error) {
	s, fail := findSkill(env, a.Name)
	if fail != nil {
		return *fail, nil
	}
	data, err := s.ReadFile(a.Path)
	note := ""
	if skills.IsTruncated(err) {
		note, err = fmt.Sprintf("\n[cut at %d KB]", len(data)>>10), nil
	}
	if err != nil {
		return FailShown(err.Error(), errShown(env, a.Path, err)), nil
	}
	if !utf8.Valid(data) || strings.IndexByte(string(data), 0) >= 0 {
		return FailShown(fmt.Sprintf("%s in skill %s is a binary file (%d bytes) and cannot be shown.", a.Path, s.Name, len(data)), binaryShown(env, a.Path, s.Name)), nil
	}
	return Result{OK: true, Output: string(data) + note}, nil
}

func runActivateSkill(ctx context.Context, env *Env, a activateSkillArgs) (Result, error) {
	s, fail := findSkill(env, a.Name)
	if fail != nil {
		return *fail, nil
	}
	if a.Scope != "" && a.Scope != "session" && a.Scope != "workspace" {
		return FailShown(`scope must be "session" or "workspace".`, env.Tr("%s: the scope must be session or workspace.", "activate_skill")), nil
	}
	if err := env.Skills.Activate(ctx, env.SessionID, s.Name, a.Scope == "workspace"); err != nil {
		return FailShown(fmt.Sprintf("Could not activate %s: %v", s.Name, err), env.Tr("Could not activate the skill %s: %v", s.Name, err)), nil
	}
	scope := "this session"
	if a.Scope == "workspace" {
		scope = "every session in this workspace"
	}
	return Result{OK: true, Output: fmt.Sprintf("Skill %s is active for %s.", s.Name, scope)}, nil
}

// LoadSkillName is load_skill's name: the system prompt's skill catalogue
// tells the model to call it, so it is there only when load_skill is offered.
const LoadSkillName = "load_skill"
