package engine

import (
	"github.com/govibe/govibe/server/internal/config"
	"os"
	"strings"

	"github.com/govibe/govibe/server/internal/permission"
	"github.com/govibe/govibe/server/internal/shellcheck"
)

// workspace is the shell analysis' view of a command's surroundings.
func (e *Engine) workspace(cwd string) shellcheck.Workspace {
	home, _ := os.UserHomeDir()
	return shellcheck.Workspace{Roots: e.opts.Roots, Cwd: cwd, Home: home}
}

// permissionPolicy builds the rule set from settings. The editor sends the
// user's rules as permissions.* and the workspace's as
// permissions.workspace.*; workspace allow rules are ignored (a repository
// must not be able to grant itself permissions). An invalid rule makes the
// whole policy unusable: the caller must then ask for everything, since a
// typo must never silently drop a deny rule.
func (e *Engine) permissionPolicy(ws shellcheck.Workspace) (*permission.Policy, error) {
	v := e.Settings()
	cs := config.Typed(v)
	user := permission.Settings{Allow: cs.Permissions.Allow, Ask: cs.Permissions.Ask, Deny: cs.Permissions.Deny}
	project := permission.Settings{Allow: cs.Permissions.Workspace.Allow, Ask: cs.Permissions.Workspace.Ask, Deny: cs.Permissions.Workspace.Deny}
	p, _, err := permission.NewPolicy(user, project, ws)
	return p, err
}

// evaluate applies the policy to one action. A broken policy answers Ask
// with the reason, so the action goes to a human (or is refused headless).
func (e *Engine) evaluate(ws shellcheck.Workspace, a permission.Action) (permission.Decision, string) {
	p, err := e.permissionPolicy(ws)
	if err != nil {
		return permission.Decision{Verdict: permission.Ask}, "your permission rules are invalid (" + err.Error() + ")"
	}
	d := p.Evaluate(a)
	switch d.Verdict {
	case permission.Deny:
		return d, "denied by your permission rule " + d.Rule.String()
	case permission.Ask:
		return d, "your permission rule " + d.Rule.String() + " asks for confirmation"
	}
	return d, ""
}

// allowsDangerous reports whether the allow rules let a dangerous
// command run without a human: every dangerous sub-command must be named
// exactly (no wildcard) by a user-level allow rule. A broad rule such as
// Bash(rm *) or Bash never speaks for a dangerous command.
func (e *Engine) allowsDangerous(ws shellcheck.Workspace, an shellcheck.Analysis) bool {
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
