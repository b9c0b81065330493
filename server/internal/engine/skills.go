package engine

import (
	"os"

	"github.com/govibe/govibe/server/internal/skills"
	"github.com/govibe/govibe/server/internal/tools"
)

// The skills capability (catalog, active skills, the picker's entries)
// is skills.Manager; the engine builds it and is nothing more than its
// wiring: the skill tools get it as their tools.SkillHost, trust changes
// reset it, and each turn's context block names its active skills.

var _ tools.SkillHost = (*skills.Manager)(nil)

// home is the user's home directory (Options.Home in tests).
func (e *Engine) home() string {
	if e.opts.Home != "" {
		return e.opts.Home
	}
	h, _ := os.UserHomeDir()
	return h
}
