package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/tools"
)

// A custom command that runs shell commands as it expands (Claude's
// !`cmd`, Gemini's !{cmd}) gives its turn those commands
// (slashcmd.Outcome.Shell). Before the model is asked, each runs as the
// turn's own run_shell_command call: the same approval (rules, the
// command's allowed-tools as the turn's allow rules, the person's yes or
// no, the headless policy) and the same OS sandbox; its output, bounded,
// takes the place of its token in the turn's user message on the model
// track. A command that is refused (or cannot start) ends the turn with
// the reason and the message is never sent unexpanded: the unanswered
// prompt leaves the model track as any failed turn's does.

// maxShellOutput bounds the output one command puts into the message.
const maxShellOutput = 20000

// runCommandShell runs t's shell commands and rewrites its user message.
func (e *Engine) runCommandShell(ctx context.Context, t *turn, b *begun) error {
	var shell tools.Tool
	for _, x := range tools.Builtin() {
		if x.Name() == "run_shell_command" {
			shell = x
		}
	}
	if shell == nil {
		return errors.New("run_shell_command is not available")
	}
	env := e.toolEnv(ctx, t)
	i := len(b.history) - 1
	if i < 0 || b.history[i].Role != llm.RoleUser {
		return errors.New("the command's message is not on the model track")
	}
	msg := b.history[i]
	for n, c := range t.shell {
		args, _ := json.Marshal(map[string]string{"command": c.Command})
		res, err := shell.Run(tools.WithCallID(ctx, fmt.Sprintf("%s-shell-%d", t.id, n)), env, args)
		if err != nil {
			return fmt.Errorf("%s", e.Tr("The command's shell command %s did not run: %v. The command was not sent.", c.Command, err))
		}
		if _, ran := res.Meta.(tools.ShellMeta); !ran {
			why := res.Display
			if why == "" {
				why = res.Output
			}
			return fmt.Errorf("%s", e.Tr("The command's shell command %s did not run: %s The command was not sent.", c.Command, why))
		}
		out := res.Output
		if len(out) > maxShellOutput {
			out = strings.ToValidUTF8(out[:maxShellOutput], "") + fmt.Sprintf("\n[cut at %d characters]", maxShellOutput)
		}
		msg.Content = strings.Replace(msg.Content, c.Token, out, 1)
	}
	if err := e.Store.ReplaceLLMMessages(ctx, t.sessionID, i, i+1, []llm.Message{msg}); err != nil {
		return err
	}
	b.history[i] = msg
	return nil
}
