package subagent

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/util/frontmatter"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Custom agents in the formats users already have, read as they are:
// Claude Code's .claude/agents/*.md (name, description, tools, model) and
// VS Code's .github/agents/*.agent.md (description, tools, model,
// handoffs; the name is the file's). Their tool names are mapped to
// GoVibe's (tools.CompatNames) and make the same allow-list as a GoVibe
// definition; names GoVibe has no tool for (another product's tools, MCP
// tools) are left out. A Claude agent without tools inherits every
// built-in tool, as in Claude Code. Their model names usually belong to
// other products (Claude's haiku, sonnet, opus, inherit; VS Code's display
// names): Def.Model keeps the name and the host maps it to one of the
// user's profiles or roles, or ignores it with a notice; it is never sent
// to a provider as written (profiles.Resolver.Subagent).

// Formats of definition folders.
const (
	FormatGoVibe = ""
	FormatClaude = "claude"
	FormatVSCode = "vscode"
)

// compatFields is the header of a Claude or VS Code agent file; tools may
// be a YAML list or a comma-separated string.
type compatFields struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Tools       any    `yaml:"tools"`
	Model       string `yaml:"model"`
}

// compatFile reports whether a directory entry is a definition in format.
func compatFile(format, name string) bool {
	if format == FormatVSCode {
		// .chatmode.md is the name VS Code gave custom agents before 1.106.
		return strings.HasSuffix(name, ".agent.md") || strings.HasSuffix(name, ".chatmode.md")
	}
	return strings.HasSuffix(name, ".md")
}

func parseCompat(path, format string, known func(string) bool) (Def, *Problem) {
	fail := func(line int, format string, args ...any) (Def, *Problem) {
		return Def{}, &Problem{Path: path, Line: line, Message: fmt.Sprintf(format, args...)}
	}
	data, err := safefile.ReadFile(path, maxDefFile)
	if err != nil {
		return fail(0, "%v", err)
	}
	doc, err := frontmatter.Split(data, format == FormatClaude)
	var fm compatFields
	if err == nil {
		err = doc.Decode(&fm, false)
	}
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			return fail(fe.Line, "%s", fe.Message)
		}
		return fail(0, "%v", err)
	}
	name := fm.Name
	if format == FormatVSCode || name == "" {
		name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".md"), ".agent"), ".chatmode")
	}
	name = compatName(name)
	if !nameRE.MatchString(name) {
		return fail(doc.FieldLine("name"), "name %q cannot be made a tool name (letters, digits, '-' or '_', at most 41)", name)
	}
	if strings.TrimSpace(fm.Description) == "" {
		return fail(1, "description is required: it tells the calling agent when to use %s", name)
	}
	list, ok := toolList(fm.Tools)
	if !ok {
		return fail(doc.FieldLine("tools"), "tools must be a list or a comma-separated string")
	}
	var allowed []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] && (known == nil || known(n)) {
			seen[n] = true
			allowed = append(allowed, n)
		}
	}
	for _, raw := range list {
		n := tools.BareToolName(raw)
		mapped := tools.CompatNames(n)
		if format == FormatVSCode {
			mapped = tools.VSCodeNames(n)
		}
		if mapped != nil {
			for _, m := range mapped {
				add(m)
			}
		} else {
			add(n)
		}
	}
	inherit := len(list) == 0 && format == FormatClaude
	if len(allowed) == 0 && !inherit {
		return fail(doc.FieldLine("tools"), "none of the tools %v is one GoVibe has", list)
	}
	prompt := strings.TrimSpace(doc.Body)
	if prompt == "" {
		return fail(1, "the body (the agent's instructions) is empty")
	}
	return Def{Name: name, Description: strings.TrimSpace(fm.Description), Tools: allowed, AllTools: inherit,
		Model: strings.TrimSpace(fm.Model), Prompt: prompt, Path: path}, nil
}

// compatName lower-cases a name and turns what a tool name cannot hold
// into '-' ("Code Reviewer" → "code-reviewer").
func compatName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

func toolList(v any) ([]string, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		var out []string
		for _, p := range strings.Split(x, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
