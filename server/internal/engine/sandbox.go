package engine

import (
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/osbox"
	"github.com/govibe/govibe/server/internal/tools"
)

// sandboxEnv is the OS sandbox the shell tools run commands in, from the
// user's settings (workspaces cannot change them: sandbox.* are UserOnly).
// nil when the user turned it off.
func sandboxEnv(cs config.Settings, sessionID string) *tools.SandboxEnv {
	if !cs.Sandbox.Enabled {
		return nil
	}
	sb := tools.NewSandboxEnv(osbox.Detect(), cs.Sandbox.Mask, cs.Sandbox.MaxProcesses, cs.Sandbox.MaxMemoryMB)
	attachProxy(sb, cs, sessionID)
	return sb
}
