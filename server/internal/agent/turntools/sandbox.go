package turntools

import (
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Sandbox is the OS sandbox the shell tools run commands in, from the
// user's settings (workspaces cannot change them: sandbox.* are UserOnly).
// nil when the user turned it off.
func (s *Service) Sandbox(cs config.Settings, sessionID string) *tools.SandboxEnv {
	sb := tools.SandboxFromSettings(cs.Sandbox)
	if sb == nil {
		return nil
	}
	attachProxy(sb, cs, sessionID, func(refused []string) {
		// Each refusal is logged by domain (the model reads it in the result).
		s.d.Log.Info("sandbox proxy refused", zap.String("session", sessionID), zap.Strings("domains", refused))
	})
	return sb
}

// NoticeSandbox says once, in plain words (through notice, the turn's
// notice), when commands run without the full sandbox: why, and how to
// enable it (or, for the Landlock fallback, what it does not keep).
func (s *Service) NoticeSandbox(notice func(text string)) {
	if !s.d.Settings().Sandbox.Enabled {
		return
	}
	st := osbox.Detect()
	var text string
	switch {
	case !st.Available():
		text = s.d.Tr("Commands run without a sandbox, so each one asks first: %s", st.Reason)
	case st.Limits() != "":
		text = s.d.Tr("Commands run in a reduced sandbox: %s", st.Limits())
	default:
		return
	}
	s.sandboxNoticed.Do(func() { notice(text) })
}
