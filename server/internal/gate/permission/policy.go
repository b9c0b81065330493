package permission

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// Settings are the permission lists of one settings file, as written there.
type Settings struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// Policy is the merged rule set. It is immutable after NewPolicy, so
// Evaluate may be called from many goroutines at once.
type Policy struct {
	Allow, Ask, Deny []Rule
	// Workspace anchors relative path rules and the analysis of Bash
	// commands.
	Workspace shellcheck.Workspace
}

// RuleProblem is an invalid rule, located where the user wrote it.
type RuleProblem struct {
	Source string // "user" or "workspace"
	List   string // "allow", "ask" or "deny"
	Index  int    // 1-based position in the list
	Rule   string
	Err    error
}

// Setting is the setting key holding the rule.
func (p RuleProblem) Setting() string { return "govibe.permissions." + p.List }

func (p RuleProblem) Error() string {
	where := "your user settings"
	if p.Source == "workspace" {
		where = "the workspace settings"
	}
	return fmt.Sprintf("%s entry %d in %s is invalid and ignored: %v", p.Setting(), p.Index, where, p.Err)
}

func (p RuleProblem) Unwrap() error { return p.Err }

// NewPolicy merges user-level and workspace-level settings. A workspace is
// not trusted to grant itself permissions: its allow rules are ignored and
// reported in the warnings; its ask and deny rules apply.
//
// An invalid rule is left out and reported as a RuleProblem (the error
// joins them all) naming the setting and the entry, so the caller can tell
// the user where to fix it; the valid rules still apply. The policy is
// never nil.
func NewPolicy(user, workspace Settings, ws shellcheck.Workspace) (*Policy, []string, error) {
	p := &Policy{Workspace: ws}
	var errs []error
	var warnings []string
	add := func(dst *[]Rule, source, list string, rules []string) {
		for i, s := range rules {
			r, err := Parse(s)
			if err != nil {
				errs = append(errs, RuleProblem{Source: source, List: list, Index: i + 1, Rule: s, Err: err})
				continue
			}
			r.Source = source
			*dst = append(*dst, r)
		}
	}
	add(&p.Deny, "user", "deny", user.Deny)
	add(&p.Deny, "workspace", "deny", workspace.Deny)
	add(&p.Ask, "user", "ask", user.Ask)
	add(&p.Ask, "workspace", "ask", workspace.Ask)
	add(&p.Allow, "user", "allow", user.Allow)
	for i, s := range workspace.Allow {
		if _, err := Parse(s); err != nil {
			errs = append(errs, RuleProblem{Source: "workspace", List: "allow", Index: i + 1, Rule: s, Err: err})
			continue
		}
		warnings = append(warnings, fmt.Sprintf("workspace settings may not allow anything; ignored allow rule %q (add it to your user settings to use it)", s))
	}
	return p, warnings, errors.Join(errs...)
}

// Action is one tool call to decide on.
type Action struct {
	// Tool is the rule tool name: "Bash", "Read", "Edit", "WebFetch", or
	// another tool's name. Writing tools are "Edit".
	Tool string
	// Command is the Bash command line.
	Command string
	// Analysis is the command's analysis when the caller already has it;
	// nil means Evaluate analyses Command itself.
	Analysis *shellcheck.Analysis
	// Path is the file for Read and Edit, absolute or relative to the
	// first workspace root.
	Path string
	// URL is the address for WebFetch.
	URL string
}

// Verdict is the outcome of evaluating an action.
type Verdict int

const (
	// None: no rule applies; the caller falls back to its default.
	None Verdict = iota
	Allow
	Ask
	Deny
)

func (v Verdict) String() string {
	switch v {
	case None:
		return "none"
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Decision is a verdict and the rule that produced it (zero for None).
type Decision struct {
	Verdict Verdict
	Rule    Rule
	// Command is, for Bash, the sub-command the rule matched (for an
	// allow: the first one needing a rule).
	Command string
}

// Evaluate decides on an action: deny rules first, then ask, then allow;
// in each list the first matching rule wins.
func (p *Policy) Evaluate(a Action) Decision {
	if a.Tool == ToolBash {
		return p.evaluateBash(a)
	}
	match := func(r Rule) bool { return p.matches(r, a) }
	for _, list := range []struct {
		rules []Rule
		v     Verdict
	}{{p.Deny, Deny}, {p.Ask, Ask}, {p.Allow, Allow}} {
		for _, r := range list.rules {
			if match(r) {
				return Decision{Verdict: list.v, Rule: r}
			}
		}
	}
	return Decision{}
}

func (p *Policy) matches(r Rule, a Action) bool {
	if r.Tool != a.Tool {
		return false
	}
	switch a.Tool {
	case ToolRead, ToolEdit:
		path := a.Path
		if path == "" {
			return false
		}
		if !filepath.IsAbs(path) {
			if len(p.Workspace.Roots) == 0 {
				return false
			}
			path = filepath.Join(p.Workspace.Roots[0], path)
		}
		return matchPath(r.Specifier, filepath.Clean(path), p.Workspace)
	case ToolWebFetch:
		return matchDomain(r.Specifier, a.URL)
	}
	return r.Specifier == ""
}

func (p *Policy) evaluateBash(a Action) Decision {
	an := a.Analysis
	if an == nil {
		res := shellcheck.Analyze(a.Command, p.Workspace)
		an = &res
	}
	subs := an.Commands
	if an.ParseError != "" {
		// Nothing reliable was parsed: let deny and ask rules see the raw
		// line, so that a broken command is not easier to run.
		subs = append(subs[:len(subs):len(subs)], shellcheck.SubCommand{Name: a.Command})
	}
	for _, list := range []struct {
		rules []Rule
		v     Verdict
	}{{p.Deny, Deny}, {p.Ask, Ask}} {
		for _, r := range list.rules {
			if r.Tool != ToolBash {
				continue
			}
			if r.Specifier == "" {
				return Decision{Verdict: list.v, Rule: r}
			}
			for _, s := range subs {
				if matchCommand(r.Specifier, s) {
					return Decision{Verdict: list.v, Rule: r, Command: s.Text()}
				}
			}
		}
	}
	if an.ParseError != "" || len(subs) == 0 {
		return Decision{}
	}
	var first *Decision
	for _, s := range subs {
		if s.Name != "" && shellState[s.Name] && s.Class == shellcheck.ReadOnly && len(s.Writes) == 0 {
			continue
		}
		r, ok := p.allowRule(s)
		if !ok {
			return Decision{}
		}
		if first == nil {
			first = &Decision{Verdict: Allow, Rule: r, Command: s.Text()}
		}
	}
	if first == nil {
		return Decision{}
	}
	return *first
}

// allowRule finds the first allow rule covering one sub-command. A specific
// rule never covers a command whose name or arguments are computed at run
// time, nor one that redirects output into files: the rule's text cannot
// speak for what those do.
func (p *Policy) allowRule(s shellcheck.SubCommand) (Rule, bool) {
	for _, r := range p.Allow {
		if r.Tool != ToolBash {
			continue
		}
		if r.Specifier == "" {
			return r, true
		}
		if !s.Literal || len(s.Writes) > 0 || s.Name == "" {
			continue
		}
		if matchCommand(r.Specifier, s) {
			return r, true
		}
	}
	return Rule{}, false
}
