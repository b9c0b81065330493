package engine

import ()

// The slash commands (built-in, custom, MCP prompts) and the limits a
// custom command puts on its turn are package slashcmd; the engine is its
// slashcmd.Host. Send runs the command a message invokes and starts the
// turn it turns into.
