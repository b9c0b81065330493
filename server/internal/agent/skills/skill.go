package skills

import (
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/util/problem"
	"io/fs"
	"regexp"
	"strings"

	"github.com/govibe/govibe/server/internal/util/frontmatter"
)

// Source says where a skill came from; it decides precedence and trust.
type Source string

const (
	SourceProject    Source = "project"     // <root>/.govibe/skills (trusted only)
	SourceCompat     Source = "compat"      // .OpenVibe/.claude/.github skills in the workspace
	SourceUser       Source = "user"        // ~/.govibe/skills
	SourceUserCompat Source = "user-compat" // ~/.claude/skills, ~/.copilot/skills
	SourceBuiltin    Source = "builtin"     // shipped in the binary
)

// Skill is one parsed skill. Immutable once loaded.
type Skill struct {
	Name         string
	Description  string
	SubSkills    []string
	AllowedTools []string
	Instruction  string
	Source       Source
	// Dir is the skill's folder: a real path, or "builtin:<name>".
	Dir string
	// fsys reads the folder; every path the model names is resolved inside it.
	fsys fs.FS
	// Scripts lists files that can run (shell, Python, JS, executables):
	// a project skill that carries them loads only in a trusted workspace.
	Scripts []string
}

// CanAct reports whether the skill can do more than instruct: it carries
// scripts or widens the tools the model may use.
func (s *Skill) CanAct() bool { return len(s.Scripts) > 0 || len(s.AllowedTools) > 0 }

// Problem is a skill that was skipped, with where and why.
type Problem = problem.Problem

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

type fields struct {
	Name         string   `yaml:"name"`
	Description  string   `yaml:"description"`
	SubSkills    []string `yaml:"subSkills"`
	AllowedTools any      `yaml:"allowedTools"`
	// Claude Code spells it allowed-tools; other keys (license, version,
	// metadata) are accepted and ignored, since compatible folders come
	// from other tools.
	AllowedTools2 any `yaml:"allowed-tools"`
}

// maxSkillFile bounds SKILL.md; instructions longer than this are a
// mistake, and the body goes into the model's context whole.
const maxSkillFile = 256 << 10

// parse reads dir/SKILL.md from fsys. folder is the directory's own name,
// used when the frontmatter has no name (compatible folders often omit it).
func parse(fsys fs.FS, folder, display string) (*Skill, *Problem) {
	path := display + "/SKILL.md"
	data, err := fs.ReadFile(fsys, "SKILL.md")
	if err != nil {
		return nil, &Problem{Path: path, Message: err.Error()}
	}
	if len(data) > maxSkillFile {
		return nil, &Problem{Path: path, Message: fmt.Sprintf("SKILL.md is %d KB; the limit is %d KB", len(data)>>10, maxSkillFile>>10)}
	}
	doc, err := frontmatter.Split(data, true)
	var f fields
	if err == nil {
		err = doc.Decode(&f, false)
	}
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			return nil, &Problem{Path: path, Line: fe.Line, Message: fe.Message}
		}
		return nil, &Problem{Path: path, Message: err.Error()}
	}
	name := strings.TrimSpace(f.Name)
	if name == "" {
		name = folder
	}
	if !nameRE.MatchString(name) {
		return nil, &Problem{Path: path, Line: doc.FieldLine("name"), Message: fmt.Sprintf("name %q must be lowercase letters, digits, '.', '-' or '_'", name)}
	}
	desc := strings.Join(strings.Fields(f.Description), " ")
	if desc == "" {
		return nil, &Problem{Path: path, Line: doc.FieldLine("name"), Message: "description is required: one line saying when to use the skill"}
	}
	tools, perr := toolList(f.AllowedTools)
	if perr == nil && len(tools) == 0 {
		tools, perr = toolList(f.AllowedTools2)
	}
	if perr != nil {
		return nil, &Problem{Path: path, Line: doc.FieldLine("allowedTools"), Message: perr.Error()}
	}
	body := strings.TrimSpace(doc.Body)
	if body == "" {
		return nil, &Problem{Path: path, Line: doc.BodyLine, Message: "the instruction (the body after the frontmatter) is empty"}
	}
	s := &Skill{Name: name, Description: desc, SubSkills: f.SubSkills, AllowedTools: tools, Instruction: body, fsys: fsys, Dir: display}
	s.Scripts = scripts(fsys)
	return s, nil
}

// toolList accepts a YAML list or a comma-separated string.
func toolList(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		var out []string
		for _, t := range strings.Split(x, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
		return out, nil
	case []any:
		var out []string
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("allowedTools must be a list of tool names")
			}
			out = append(out, strings.TrimSpace(s))
		}
		return out, nil
	}
	return nil, fmt.Errorf("allowedTools must be a list of tool names")
}

var scriptExt = map[string]bool{".sh": true, ".bash": true, ".zsh": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true,
	".ts": true, ".rb": true, ".pl": true, ".ps1": true, ".bat": true, ".cmd": true, ".exe": true, ".php": true, ".lua": true}

// scripts lists the folder's files that can run.
func scripts(fsys fs.FS) []string {
	var out []string
	n := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || n > maxFiles {
			return fs.SkipDir
		}
		n++
		if d.IsDir() {
			return nil
		}
		ext := strings.ToLower(p[strings.LastIndexByte(p, '.')+1:])
		if i := strings.LastIndexByte(p, '.'); i >= 0 && scriptExt["."+ext] {
			out = append(out, p)
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().Perm()&0o111 != 0 {
			out = append(out, p)
		}
		return nil
	})
	return out
}
