package engine

import (
	"os"

	"github.com/govibe/govibe/server/internal/permission"
	"github.com/govibe/govibe/server/internal/shellcheck"
)

// workspace is the shell analysis' view of a command's surroundings.
func (e *Engine) workspace(cwd string) shellcheck.Workspace {
	home, _ := os.UserHomeDir()
	return shellcheck.Workspace{Roots: e.opts.Roots, Cwd: cwd, Home: home}
}

// permissionPolicy builds the rule set from settings. The engine receives
// settings already merged by the editor (user, then workspace), so every
// rule is treated as the user's. An invalid rule makes the whole policy
// unusable: the caller must then ask for everything, since a typo must
// never silently drop a deny rule.
func (e *Engine) permissionPolicy(ws shellcheck.Workspace) (*permission.Policy, error) {
	v := e.Settings()
	user := permission.Settings{Allow: v.Strings("permissions.allow"), Ask: v.Strings("permissions.ask"), Deny: v.Strings("permissions.deny")}
	p, _, err := permission.NewPolicy(user, permission.Settings{}, ws)
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

// allowsDangerous reports whether an allow decision may run a dangerous
// command without a human: only a user-level rule naming the command
// (not a blanket Bash rule) can.
func allowsDangerous(d permission.Decision) bool {
	return d.Verdict == permission.Allow && d.Rule.Source == "user" && d.Rule.Specifier != "" && d.Rule.Specifier != "*"
}
