package engine

import (
	"github.com/govibe/govibe/server/internal/slashcmd"
)

// The slash commands (built-in, custom, MCP prompts) and the limits a
// custom command puts on its turn are package slashcmd; the engine is its
// slashcmd.Host. Send runs the command a message invokes and starts the
// turn it turns into.

// Commands lists every slash command (custom ones replacing built-ins of
// the same name), sorted, for autocomplete and /help.
func (e *Engine) Commands() []slashcmd.Info { return e.slash.List() }
