package permission

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Tool names with rule specifiers of their own.
const (
	ToolBash     = "Bash"
	ToolRead     = "Read"
	ToolEdit     = "Edit"
	ToolWebFetch = "WebFetch"
)

// Rule is one parsed permission rule. Rules are values and never change
// after Parse, so they are safe to share between goroutines.
type Rule struct {
	// Tool is the tool the rule is about ("Bash", "Edit", "mcp__x__y").
	Tool string `json:"tool"`
	// Specifier is the text inside the parentheses; "" matches every use
	// of the tool (written "Bash" or "Bash(*)").
	Specifier string `json:"specifier,omitempty"`
	// Source says where the rule came from: "user" or "workspace".
	Source string `json:"source,omitempty"`
}

// String is the rule as written in settings.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// Parse reads one rule. Errors say what is wrong in words a user editing
// settings.json understands.
func Parse(rule string) (Rule, error) {
	s := strings.TrimSpace(rule)
	if s == "" {
		return Rule{}, fmt.Errorf("empty rule")
	}
	name, spec, hasSpec := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	if !hasSpec && strings.Contains(s, ")") {
		return Rule{}, fmt.Errorf("rule %q has \")\" without \"(\"", rule)
	}
	if name == "" {
		return Rule{}, fmt.Errorf("rule %q has no tool name before \"(\"", rule)
	}
	for i, c := range name {
		ok := c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return Rule{}, fmt.Errorf("rule %q: tool name %q may contain only letters, digits, '_' and '-'", rule, name)
		}
	}
	r := Rule{Tool: name}
	if !hasSpec {
		return r, nil
	}
	if !strings.HasSuffix(spec, ")") {
		return Rule{}, fmt.Errorf("rule %q is missing its closing parenthesis", rule)
	}
	spec = strings.TrimSpace(spec[:len(spec)-1])
	if spec == "" {
		return Rule{}, fmt.Errorf("rule %q has an empty specifier; write %s to match every use", rule, name)
	}
	if spec == "*" && name != ToolRead && name != ToolEdit {
		// Bash(*) is Bash; Read(*) stays a pattern (top-level files).
		return r, nil
	}
	switch name {
	case ToolBash:
		if strings.Contains(spec, ":*") && !strings.HasSuffix(spec, ":*") {
			return Rule{}, fmt.Errorf("rule %q: \":*\" is only allowed at the end of a Bash pattern", rule)
		}
	case ToolRead, ToolEdit:
		p := pathPattern(spec)
		if !doublestar.ValidatePattern(p) {
			return Rule{}, fmt.Errorf("rule %q: %q is not a valid path pattern", rule, spec)
		}
	case ToolWebFetch:
		domain, ok := strings.CutPrefix(spec, "domain:")
		if !ok {
			return Rule{}, fmt.Errorf("rule %q: WebFetch rules take the form WebFetch(domain:example.com)", rule)
		}
		domain = strings.TrimPrefix(domain, "*.")
		if domain == "" || strings.ContainsAny(domain, "/:@ *") {
			return Rule{}, fmt.Errorf("rule %q: %q is not a domain name", rule, domain)
		}
		spec = "domain:" + strings.ToLower(strings.TrimPrefix(spec, "domain:"))
	default:
		return Rule{}, fmt.Errorf("rule %q: tool %s takes no specifier (only Bash, Read, Edit and WebFetch do); write %s to match every use", rule, name, name)
	}
	r.Specifier = spec
	return r, nil
}

// pathPattern strips the anchors of a Read/Edit specifier, leaving the
// doublestar pattern: "//abs/x" → "/abs/x", "~/x" → "x", "/x" → "x".
func pathPattern(spec string) string {
	switch {
	case strings.HasPrefix(spec, "//"):
		return spec[1:]
	case strings.HasPrefix(spec, "~/"):
		return spec[2:]
	}
	return strings.TrimPrefix(spec, "/")
}
