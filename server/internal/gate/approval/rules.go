package approval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// workspace is the shell analysis' view of a command's surroundings.
func (e *Approvals) workspace(cwd string) shellcheck.Workspace {
	home, _ := os.UserHomeDir()
	return shellcheck.Workspace{Roots: e.opts.Roots, Cwd: cwd, Home: home}
}

// permissionPolicy builds the rule set from settings. The editor sends the
// user's rules as permissions.* and the workspace's as
// permissions.workspace.*; workspace allow rules are ignored (a repository
// must not be able to grant itself permissions). Invalid rules are left
// out of the policy and returned as the error: PermissionProblems reports
// them to the user where they were written (a notice naming the setting
// and the entry), instead of every command turning into a question.
func (e *Approvals) permissionPolicy(ws shellcheck.Workspace) (*permission.Policy, error) {
	cs := e.host.Settings()
	// Always-allow rules were validated when written; they are user rules.
	allow := append(append([]string(nil), cs.Permissions.Allow...), e.alwaysAllowed()...)
	user := permission.Settings{Allow: noMCPWildcards(allow), Ask: noMCPWildcards(cs.Permissions.Ask), Deny: noMCPWildcards(cs.Permissions.Deny)}
	project := permission.Settings{Allow: noMCPWildcards(cs.Permissions.Workspace.Allow), Ask: noMCPWildcards(cs.Permissions.Workspace.Ask), Deny: noMCPWildcards(cs.Permissions.Workspace.Deny)}
	p, _, err := permission.NewPolicy(user, project, ws)
	return p, err
}

// PermissionProblems lists the invalid permission rules, each naming the
// setting and the entry to fix, in the user's language. The server shows
// them as notices; govibe exec prints them as warnings.
func (e *Approvals) PermissionProblems() []string {
	_, err := e.permissionPolicy(e.workspace(""))
	var out []string
	for _, p := range joined(err) {
		var rp permission.RuleProblem
		if errors.As(p, &rp) {
			setting, where := rp.Setting(), e.host.Tr("your user settings")
			if rp.Source == "workspace" {
				where = e.host.Tr("the workspace settings")
			}
			// Headless, the workspace lists are keys of their own
			// (permissions.workspace.*), written in flags or a file:
			// name the key and the place the user wrote.
			key := "permissions." + rp.List
			if rp.Source == "workspace" {
				key = "permissions.workspace." + rp.List
			}
			if o := e.opts.SettingOrigin; o != nil {
				if w := o(key); w != "" {
					setting, where = "govibe."+key, w
				}
			}
			out = append(out, e.host.Tr("Permission rule %s entry %d (%q) in %s is invalid and ignored: %v", setting, rp.Index, rp.Rule, where, rp.Err))
		}
	}
	return out
}

func joined(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// evaluate applies the policy to one action. Invalid rules are not part
// of it (they are reported by PermissionProblems).
func (e *Approvals) evaluate(ws shellcheck.Workspace, a permission.Action) (permission.Decision, string) {
	p, _ := e.permissionPolicy(ws)
	return decided(p.Evaluate(a))
}

// decided is a decision and its model-visible reason.
func decided(d permission.Decision) (permission.Decision, string) {
	switch d.Verdict {
	case permission.Deny:
		return d, "denied by your permission rule " + d.Rule.String()
	case permission.Ask:
		return d, "your permission rule " + d.Rule.String() + " asks for confirmation"
	}
	return d, ""
}

// Readable is the tools' Read-rule check (tools.Env.Readable): a file or
// folder a deny rule names is not read; one an ask rule names is not read
// either, since GoVibe has no confirmation for reads; the model is told
// which rule stopped it, so it can ask the user instead.
func (e *Approvals) Readable(abs string) error {
	p, _ := e.permissionPolicy(e.workspace(""))
	d := p.Evaluate(permission.Action{Tool: permission.ToolRead, Path: abs})
	return e.readRefusal(d, e.DisplayPath(abs))
}

// readRefusal is worded for the model (which rule, what to do) and for the
// person in their language (the tool card and headless output).
func (e *Approvals) readRefusal(d permission.Decision, what string) error {
	switch d.Verdict {
	case permission.Deny:
		return &tools.Refusal{Reason: fmt.Sprintf("not read: the user's permission rule %s denies reading %s", d.Rule, what),
			Display: e.host.Tr("Not read: your permission rule %s denies reading %s.", d.Rule.String(), what)}
	case permission.Ask:
		return &tools.Refusal{Reason: fmt.Sprintf("not read: the user's permission rule %s requires asking before reading %s, and reads cannot be confirmed; ask the user for what you need", d.Rule, what),
			Display: e.host.Tr("Not read: your permission rule %s asks before reading %s, and reads cannot be confirmed.", d.Rule.String(), what)}
	}
	return nil
}

// shellReads applies the Read rules to what a command reads (its existing
// operands, input redirections and implied reads, from the shell analysis,
// and the tracked files of a repository git prints whole): the decision
// and the model-visible reason.
func (e *Approvals) shellReads(ws shellcheck.Workspace, cmd string, an shellcheck.Analysis) (permission.Decision, string) {
	p, _ := e.permissionPolicy(ws)
	d := p.EvaluateReads(permission.ReadPaths(cmd, an, ws))
	if d.Verdict == permission.None {
		// git with no pathspec prints what it tracks, nothing else.
		d = p.EvaluateTracked(permission.TrackedReads(an, ws))
	}
	switch d.Verdict {
	case permission.Deny:
		return d, "the user's permission rule " + d.Rule.String() + " denies reading " + e.DisplayPath(d.Command)
	case permission.Ask:
		return d, "the user's permission rule " + d.Rule.String() + " asks before reading " + e.DisplayPath(d.Command)
	}
	return d, ""
}

// DisplayPath shows a path relative to its workspace root when inside one.
func (e *Approvals) DisplayPath(abs string) string {
	for _, r := range e.opts.Roots {
		if rel, err := filepath.Rel(r, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}

// allowsDangerous reports whether the allow rules let a dangerous
// command run without a human: every dangerous sub-command must be named
// exactly (no wildcard) by a user-level allow rule. A broad rule such as
// Bash(rm *) or Bash never speaks for a dangerous command.
func (e *Approvals) allowsDangerous(ws shellcheck.Workspace, an shellcheck.Analysis) bool {
	// Any invalid rule withholds the exemption: the user's intent for
	// dangerous commands is unclear until the rules are fixed.
	p, err := e.permissionPolicy(ws)
	if err != nil || an.ParseError != "" {
		return false
	}
	found := false
	for _, sub := range an.Commands {
		if sub.Class != shellcheck.Dangerous {
			continue
		}
		found = true
		exact := false
		for _, r := range p.Allow {
			if r.Tool == permission.ToolBash && r.Source == "user" && r.Specifier != "" && !strings.Contains(r.Specifier, "*") &&
				sub.Literal && r.Specifier == sub.Text() {
				exact = true
				break
			}
		}
		if !exact {
			return false
		}
	}
	return found
}

// noMCPWildcards drops server-wide MCP rules (mcp__server__*), which the
// rule grammar has no syntax for: the MCP approver matches them itself
// (mcp.go), and they must not make the whole policy invalid.
func noMCPWildcards(rules []string) []string {
	out := rules[:0:0]
	for _, r := range rules {
		if !isMCPWildcard(r) {
			out = append(out, r)
		}
	}
	return out
}

func isMCPWildcard(r string) bool {
	r = strings.TrimSpace(r)
	return strings.HasPrefix(r, "mcp__") && strings.HasSuffix(r, "*")
}

// Denies reports whether a permission rule denies the shell command.
func (e *Approvals) Denies(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool {
	d, _ := e.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: command, Analysis: &an})
	return d.Verdict == permission.Deny
}
