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
}

// reloadTrustGated drops every trust-gated catalog so the next use loads
// it under the current trust, and reports what was skipped.
func (e *Engine) reloadTrustGated() {
	e.resetSkills()
	e.resetCustomCommands()
	e.resetHooks()
	e.resetMCP()
	e.reportTrustGated()
}

// reportTrustGated reports, for each trust-gated kind of project config,
// what was skipped or malformed.
func (e *Engine) reportTrustGated() {
	e.reportSkills()
	e.customCommands() // loading reports its problems and conflicts
	if e.Trusted() {
		return
	}
	if found := untrustedConfig(e.opts.Roots); len(found) > 0 {
		e.notice("info", e.tr("This workspace is not trusted, so its project configuration that can run things was not loaded: %s. Trust the workspace to use it.", strings.Join(found, ", ")))
	}
}

// gatedPaths are the project files and folders that trust gates (besides
// skills, reported by the catalog).
var gatedPaths = []string{
	".govibe/commands", ".claude/commands", ".gemini/commands", ".github/prompts",
	".govibe/agents", ".claude/agents", ".github/agents",
	".govibe/hooks.json", ".github/hooks", ".claude/settings.json", ".claude/settings.local.json",
	".govibe/mcp.json", ".vscode/mcp.json", ".mcp.json",
}

// untrustedConfig lists the gated project config present in roots.
func untrustedConfig(roots []string) []string {
	var out []string
	for _, r := range roots {
		for _, p := range gatedPaths {
			if _, err := os.Stat(filepath.Join(r, filepath.FromSlash(p))); err == nil {
				if len(roots) > 1 {
					p = filepath.Join(filepath.Base(r), p)
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// notice tells the user something that belongs to no session.
func (e *Engine) notice(level, msg string) {
	e.log.Info("notice", zap.String("level", level), zap.String("message", msg))
	if e.opts.OnNotice != nil {
		e.opts.OnNotice(level, msg)
	}
}
