package engine

import (
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/osbox"
	"github.com/govibe/govibe/server/internal/tools"
)

// sandboxEnv is the OS sandbox the shell tools run commands in, from the
// user's settings (workspaces cannot change them: sandbox.* are UserOnly).
// nil when the user turned it off.
func (e *Engine) sandboxEnv(cs config.Settings, sessionID string) *tools.SandboxEnv {
	if !cs.Sandbox.Enabled {
		return nil
	}
	sb := tools.NewSandboxEnv(osbox.Detect(), cs.Sandbox.Mask, cs.Sandbox.MaxProcesses, cs.Sandbox.MaxMemoryMB)
	attachProxy(sb, cs, sessionID, func(refused []string) {
		// Each refusal is logged by domain (the model reads it in the result).
		e.log.Info("sandbox proxy refused", zap.String("session", sessionID), zap.Strings("domains", refused))
	})
	return sb
}

// noticeSandbox says once, in plain words, when commands run without the
// full sandbox: why, and how to enable it (or, for the Landlock fallback,
// what it does not keep).
func (e *Engine) noticeSandbox(sink *turnSink) {
	cs := config.Typed(e.Settings())
	if !cs.Sandbox.Enabled {
		return
	}
	st := osbox.Detect()
	var text string
	switch {
	case !st.Available():
		text = e.Tr("Commands run without a sandbox, so each one asks first: %s", st.Reason)
	case st.Limits() != "":
		text = e.Tr("Commands run in a reduced sandbox: %s", st.Limits())
	default:
		return
	}
	e.sandboxNoticed.Do(func() { sink.Notice(text) })
}
