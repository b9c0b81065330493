package engine

import (
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"
)

// Workspace trust. What can act on the user's machine from project files
// (project skills with scripts or allowedTools, custom commands, custom
// agents, hooks, MCP servers) loads only in a trusted workspace; plain-text
// context files load either way. Trust starts from Options.Trusted and
// changes with SetTrusted (VS Code's onDidGrantWorkspaceTrust); everything
// it gates is loaded lazily from the current value, so a change only has to
// drop what was loaded.

// Trusted reports the workspace's current trust.
func (e *Engine) Trusted() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.trusted
}

// SetTrusted applies a trust change: the project configuration that trust
// gates is loaded again on next use, and what is still skipped is
// reported as a notice.
func (e *Engine) SetTrusted(on bool) {
	e.mu.Lock()
	changed := e.trusted != on
	e.trusted = on
	e.mu.Unlock()
	if !changed {
		return
	}
	e.log.Info("workspace trust changed", zap.Bool("trusted", on))
	e.reloadTrustGated()
	if on {
		// The untrusted-workspace notice no longer holds, wherever trust
		// was granted (the notice's button, VS Code's trust editor).
		if e.opts.OnNoticeWithdrawn != nil {
			e.opts.OnNoticeWithdrawn(ActionTrustWorkspace)
		}
		go e.loadTrustGated()
	}
}

// loadTrustGated loads what trust just let in, instead of waiting for its
// first use: the hooks (their problems are reported now) and the MCP
// servers, which start so the status view shows them connected.
// Commands and skills were loaded by reportTrustGated.
func (e *Engine) loadTrustGated() {
	e.hooks.Runner()
	if e.Trusted() && e.baseCtx.Err() == nil {
		e.mcp.Manager().Start(e.baseCtx)
	}
}

// reloadTrustGated drops every trust-gated catalog so the next use loads
// it under the current trust, and reports what was skipped.
func (e *Engine) reloadTrustGated() {
	e.skills.Reset()
	e.resetCustomCommands()
	e.hooks.Reset()
	e.mcp.Reset()
	e.reportTrustGated()
}

// reportTrustGated reports, for each trust-gated kind of project config,
// what was skipped or malformed. The untrusted-workspace notice names
// each kind with its files and carries the "trustWorkspace" action, so the
// editor can offer VS Code's workspace trust request beside it.
func (e *Engine) reportTrustGated() {
	e.skills.Report()
	e.customCommands() // loading reports its problems and conflicts
	if e.Trusted() {
		return
	}
	var parts []string
	for _, k := range untrustedConfig(e.opts.Roots) {
		parts = append(parts, e.gatedLabel(k.label)+" ("+strings.Join(k.found, ", ")+")")
	}
	if len(parts) > 0 {
		e.noticeAction("info", e.tr("This workspace is not trusted, so its project configuration that can run things was not loaded: %s. Trust the workspace to use it.", strings.Join(parts, "; ")), ActionTrustWorkspace)
	}
}

// ActionTrustWorkspace is the notice action that asks the editor to
// offer workspace trust.
const ActionTrustWorkspace = "trustWorkspace"

// gatedKinds are the project files and folders that trust gates, by what
// they hold. Skills count only when they carry scripts; the folder is
// named either way, as the catalog reports the skills it skipped.
var gatedKinds = []struct {
	label string
	paths []string
}{
	{"hooks", []string{".govibe/hooks.json", ".github/hooks", ".claude/settings.json", ".claude/settings.local.json"}},
	{"MCP servers", []string{".govibe/mcp.json", ".vscode/mcp.json", ".mcp.json"}},
	{"custom commands", []string{".govibe/commands", ".claude/commands", ".gemini/commands", ".github/prompts"}},
	{"custom agents", []string{".govibe/agents", ".claude/agents", ".github/agents"}},
	{"skills", []string{".govibe/skills"}},
}

// gatedLabel names a kind in the user's language (each literal is in the
// catalogue).
func (e *Engine) gatedLabel(label string) string {
	switch label {
	case "hooks":
		return e.tr("hooks")
	case "MCP servers":
		return e.tr("MCP servers")
	case "custom commands":
		return e.tr("custom commands")
	case "custom agents":
		return e.tr("custom agents")
	case "skills":
		return e.tr("skills")
	}
	return label
}

// gatedKind is one kind of gated config found in the workspace.
type gatedKind struct {
	label string
	found []string
}

// untrustedConfig lists the gated project config present in roots.
func untrustedConfig(roots []string) []gatedKind {
	var out []gatedKind
	for _, k := range gatedKinds {
		g := gatedKind{label: k.label}
		for _, r := range roots {
			for _, p := range k.paths {
				if _, err := os.Stat(filepath.Join(r, filepath.FromSlash(p))); err == nil {
					if len(roots) > 1 {
						p = filepath.Join(filepath.Base(r), p)
					}
					g.found = append(g.found, p)
				}
			}
		}
		if len(g.found) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// notice tells the user something that belongs to no session.
func (e *Engine) notice(level, msg string) { e.noticeAction(level, msg, "") }

// noticeAction is a notice with a remedy the client can offer.
func (e *Engine) noticeAction(level, msg, action string) {
	e.log.Info("notice", zap.String("level", level), zap.String("message", msg), zap.String("action", action))
	if e.opts.OnNotice != nil {
		e.opts.OnNotice(level, msg, action)
	}
}
