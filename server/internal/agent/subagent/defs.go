package subagent

import (
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/util/problem"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/util/frontmatter"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Def is one sub-agent definition.
type Def struct {
	Name        string
	Description string
	// Tools is the allow-list; the agent is offered these and nothing else.
	Tools []string
	// AllTools: a Claude Code agent without a tools line inherits every
	// built-in tool.
	AllTools bool
	// Model optionally names another model (or profile) for this agent,
	// as written: the host resolves it (another tool's name such as haiku
	// or inherit maps to a role or the parent's model, never sent as is).
	Model string
	// Prompt is the body of the file: the agent's system prompt.
	Prompt string
	Path   string
	Source string // project|user
	Format string // FormatGoVibe, FormatClaude or FormatVSCode
}

// ToolName is the tool the calling agent sees.
func (d Def) ToolName() string { return "agent_" + d.Name }

// Problem is a definition file that was skipped.
type Problem = problem.Problem

// Dir is a directory of *.md definitions.
type Dir struct {
	Path   string
	Source string
	Format string // FormatGoVibe, FormatClaude or FormatVSCode
}

// Dirs are the places definitions load from, later ones replacing earlier
// ones of the same name: the user's ~/.govibe/agents always; each
// workspace root's .claude/agents, .github/agents and .govibe/agents only
// when the workspace is trusted (a cloned repository must not get to
// define agents otherwise).
func Dirs(home string, roots []string, trusted bool) []Dir {
	var out []Dir
	if home != "" {
		out = append(out, Dir{Path: filepath.Join(home, ".govibe", "agents"), Source: "user"})
	}
	if trusted {
		for _, r := range roots {
			out = append(out,
				Dir{Path: filepath.Join(r, ".claude", "agents"), Source: "project", Format: FormatClaude},
				Dir{Path: filepath.Join(r, ".github", "agents"), Source: "project", Format: FormatVSCode},
				Dir{Path: filepath.Join(r, ".github", "chatmodes"), Source: "project", Format: FormatVSCode},
				Dir{Path: filepath.Join(r, ".govibe", "agents"), Source: "project"})
		}
	}
	return out
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,40}$`)

// frontmatter is the YAML header of a definition file.
type frontmatterFields struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tools       []string `yaml:"tools"`
	Model       string   `yaml:"model"`
}

// Load reads every *.md file of dirs, in order. A later definition with
// the same name replaces an earlier one (project over user). known says
// whether a tool name exists; a definition naming an unknown tool is a
// problem. Malformed files are reported and skipped, never fatal; a
// missing directory is not a problem.
func Load(dirs []Dir, known func(string) bool) ([]Def, []Problem) {
	byName := map[string]Def{}
	var problems []Problem
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				problems = append(problems, Problem{Path: d.Path, Message: err.Error()})
			}
			continue
		}
		for _, ent := range entries {
			if ent.IsDir() || !compatFile(d.Format, ent.Name()) {
				continue
			}
			path := filepath.Join(d.Path, ent.Name())
			var def Def
			var p *Problem
			if d.Format == FormatGoVibe {
				def, p = parseFile(path, known)
			} else {
				def, p = parseCompat(path, d.Format, known)
			}
			if p != nil {
				problems = append(problems, *p)
				continue
			}
			def.Source, def.Format = d.Source, d.Format
			byName[def.Name] = def
		}
	}
	out := make([]Def, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func parseFile(path string, known func(string) bool) (Def, *Problem) {
	data, err := safefile.ReadFile(path, maxDefFile)
	if err != nil {
		return Def{}, &Problem{Path: path, Message: err.Error()}
	}
	fail := func(line int, format string, args ...any) (Def, *Problem) {
		return Def{}, &Problem{Path: path, Line: line, Message: fmt.Sprintf(format, args...)}
	}
	doc, err := frontmatter.Split(data, true)
	if err == nil {
		var fm frontmatterFields
		if err = doc.Decode(&fm, true); err == nil {
			return validate(path, doc, fm, known)
		}
	}
	var fe *frontmatter.Error
	if errors.As(err, &fe) {
		return fail(fe.Line, "%s", fe.Message)
	}
	return fail(0, "%v", err)
}

func validate(path string, doc frontmatter.Doc, fm frontmatterFields, known func(string) bool) (Def, *Problem) {
	fail := func(line int, format string, args ...any) (Def, *Problem) {
		return Def{}, &Problem{Path: path, Line: line, Message: fmt.Sprintf(format, args...)}
	}
	fieldLine := doc.FieldLine
	body := doc.Body
	switch {
	case fm.Name == "":
		return fail(1, "name is required")
	case !nameRE.MatchString(fm.Name):
		return fail(fieldLine("name"), "name %q must be lowercase letters, digits, '-' or '_' (at most 41 characters)", fm.Name)
	case strings.TrimSpace(fm.Description) == "":
		return fail(fieldLine("name"), "description is required: it tells the calling agent when to use %s", fm.Name)
	case len(fm.Tools) == 0:
		return fail(1, "tools is required: the list of tools the agent may use")
	}
	for _, t := range fm.Tools {
		if known != nil && !known(t) {
			return fail(fieldLine("tools"), "unknown tool %q in tools", t)
		}
	}
	prompt := strings.TrimSpace(body)
	if prompt == "" {
		return fail(fieldLine("name"), "the body (the agent's system prompt) is empty")
	}
	return Def{Name: fm.Name, Description: strings.TrimSpace(fm.Description), Tools: fm.Tools, Model: strings.TrimSpace(fm.Model),
		Prompt: prompt, Path: path}, nil
}

// maxDefFile bounds the read of an agent definition: a FIFO or a device in its place is
// refused by kind, never waited on or read without end (issue 31).
const maxDefFile = 4 << 20
