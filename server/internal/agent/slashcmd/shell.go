package slashcmd

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A custom command whose file runs shell commands as it expands (Claude's
// !`cmd`, Gemini's !{cmd}; customcmd's inject.go) gives its turn the
// commands (Outcome.Shell); RunShell (shell_run.go) runs each as a run_shell_command
// call of that turn, through the same approval and sandbox, and puts the
// output where the command stood before the model is asked. Here the
// command is refused before anything runs when the workspace is not
// trusted (a user command may run in any folder), or when a Claude
// command's allowed-tools leave Bash out, which Claude Code requires.

// mayRunShell says why cc may not run its shell commands, or nil.
func (c *Commands) mayRunShell(cc customcmd.Command, calls []customcmd.ShellCall) error {
	if len(calls) == 0 {
		return nil
	}
	if !c.o.Trusted() {
		return errors.New(c.h.Tr("/%s runs shell commands as it expands (%s), which only a trusted workspace allows; nothing was run and the command was not sent.", cc.Name, calls[0].Command))
	}
	if isClaude(cc) && len(cc.AllowedTools) > 0 && !allowsBash(cc.AllowedTools) {
		return errors.New(c.h.Tr("/%s runs shell commands as it expands (%s), but its allowed-tools leave out Bash, which Claude Code requires for that; nothing was run and the command was not sent.", cc.Name, calls[0].Command))
	}
	return nil
}

// isClaude reports whether cc comes from a Claude Code commands folder.
func isClaude(cc customcmd.Command) bool {
	return strings.Contains(filepath.ToSlash(cc.Path), "/.claude/commands/")
}

// allowsBash reports whether an allowed-tools list names Claude's Bash
// tool (bare or with a pattern) or GoVibe's shell tool.
func allowsBash(list []string) bool {
	for _, t := range list {
		n := tools.BareToolName(t)
		if n == "Bash" || n == "run_shell_command" {
			return true
		}
	}
	return false
}

// nonce makes the shell tokens of one expansion unguessable, so text the
// user typed or a file holds cannot stand for a command's output.
func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
