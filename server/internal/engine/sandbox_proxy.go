package engine

import (
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/tools"
)

// attachProxy gives the sandbox its network: filled in once netproxy lands.
func attachProxy(sb *tools.SandboxEnv, cs config.Settings, sessionID string) {}
