package approval

import (
	"path/filepath"
	"regexp"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// "Always allow": a confirmation card offers the user-level allow rules
// that would have let its call run unasked (Confirm.AllowRules). Accepting
// with Answer.AlwaysAllow writes exactly those rules to the user's
// allow-rules file (package allowrules); a client cannot name other rules,
// and nothing from a workspace is ever written there. The rules count as
// user allow rules from the next call on.

// AllowRules is the user's always-allow file (nil when none is
// configured, as in tests that do not ask for one).
func (e *Approvals) AllowRules() *allowrules.File { return e.opts.AllowRules }

// alwaysAllowed are the file's rules, which join govibe.permissions.allow.
func (e *Approvals) alwaysAllowed() []string {
	return e.opts.AllowRules.Rules()
}

// rememberAllow writes the card's rules when the user accepted with
// "Always allow", and says so in the chat.
func (e *Approvals) rememberAllow(c Confirm, a Answer) {
	if !a.Accept || !a.AlwaysAllow || len(c.AllowRules) == 0 {
		return
	}
	added, err := e.opts.AllowRules.Add(c.AllowRules...)
	if err != nil {
		e.log.Warn("always allow", zap.Strings("rules", c.AllowRules), zap.Error(err))
		e.host.Notice(c.SessionID, c.TurnID, "warn", e.host.Tr("Could not save the always-allow rule: %v", err))
		return
	}
	e.log.Info("always allow", zap.Strings("rules", c.AllowRules), zap.Strings("added", added), zap.String("file", e.opts.AllowRules.Path()))
	e.host.Notice(c.SessionID, c.TurnID, "", e.host.Tr("Always allowed from now on: %s. Revoke it with “GoVibe: Always-Allowed Rules” or govibe permissions revoke.", strings.Join(c.AllowRules, ", ")))
}

// plainWord is an argument that names a sub-command (test, run, build),
// not a path, flag or value.
var plainWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]*$`)

// runners take the name of what they run as their next word.
var runners = map[string]bool{"run": true, "exec": true, "run-script": true, "x": true}

// shellAllowRules proposes the Bash rules that would allow a command:
// one per sub-command, by its prefix (go test:*, npm run build:*) or, for
// a dangerous or flag-led changing command, its exact text. Nothing is
// offered when a sub-command is computed at run time or writes files, as
// no specific rule can cover those.
func (e *Approvals) shellAllowRules(an shellcheck.Analysis) []string {
	if e.opts.AllowRules.Path() == "" || an.ParseError != "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range an.Commands {
		if shellStateCmd(s.Name) && s.Class == shellcheck.ReadOnly && len(s.Writes) == 0 {
			continue
		}
		if !s.Literal || len(s.Writes) > 0 || s.Name == "" {
			return nil
		}
		spec := commandPrefix(s)
		if spec == "" {
			return nil
		}
		r, err := allowrules.Validate("Bash(" + spec + ")")
		if err != nil {
			return nil
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

func commandPrefix(s shellcheck.SubCommand) string {
	text := s.Text()
	if s.Class == shellcheck.Dangerous {
		// Only an exact rule speaks for a dangerous command (allowsDangerous).
		if strings.Contains(text, "*") {
			return ""
		}
		return text
	}
	words := []string{s.Name}
	for i, a := range s.Args {
		if i > 1 || !plainWord.MatchString(a) || (i == 1 && !runners[s.Args[0]]) {
			break
		}
		words = append(words, a)
	}
	if len(words) == 1 && len(s.Args) > 0 && s.Class != shellcheck.ReadOnly {
		// rm -rf build: a rule for every rm would be far broader than
		// what was approved.
		if strings.Contains(text, "*") {
			return ""
		}
		return text
	}
	return strings.Join(words, " ") + ":*"
}

func shellStateCmd(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "true", "false", ":", "set", "shopt", "test", "[":
		return true
	}
	return false
}

// editAllowRules proposes the rule for exactly this file, anchored to its
// absolute path (Edit(//home/me/app/main.go)): a relative rule would
// allow the same name in every other workspace. Nothing for a path the
// pattern grammar would read as a wildcard, or a non-Unix path.
func (e *Approvals) editAllowRules(abs string) []string {
	p := filepath.ToSlash(filepath.Clean(abs))
	if e.opts.AllowRules.Path() == "" || !strings.HasPrefix(p, "/") || strings.ContainsAny(p, `*?[]{}\`) {
		return nil
	}
	if r, err := allowrules.Validate("Edit(/" + p + ")"); err == nil {
		return []string{r}
	}
	return nil
}

// mcpAllowRules proposes the tool's own rule (mcp__server__tool, or
// browser_sub_agent).
func (e *Approvals) mcpAllowRules(tool string) []string {
	if e.opts.AllowRules.Path() == "" {
		return nil
	}
	if r, err := allowrules.Validate(tool); err == nil {
		return []string{r}
	}
	return nil
}
