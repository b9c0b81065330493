package slashcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Before the model is asked, each of a custom command's shell commands
// (Outcome.Shell) runs as the turn's own run_shell_command call: the
// same approval (rules, the command's allowed-tools as the turn's allow
// rules, the person's yes or no, the headless policy) and the same OS
// sandbox; its output, bounded, takes the place of its token in the
// turn's user message on the model track. A command that is refused (or
// cannot start) ends the turn with the reason and the message is never
// sent unexpanded: the unanswered prompt leaves the model track as any
// failed turn's does.

// MaxShellOutput bounds the output one command puts into the message.
const MaxShellOutput = 20000

// RunShell runs calls as turn turnID's run_shell_command calls in env
// and puts their output into the turn's user message, the last of
// history: replace records the new message i, then history[i] is it.
func RunShell(ctx context.Context, env *tools.Env, turnID string, calls []customcmd.ShellCall, history []llm.Message,
	replace func(i int, msg llm.Message) error, tr func(string, ...any) string) error {
	var shell tools.Tool
	for _, x := range tools.Builtin() {
		if x.Name() == "run_shell_command" {
			shell = x
		}
	}
	if shell == nil {
		return errors.New("run_shell_command is not available")
	}
	i := len(history) - 1
	if i < 0 || history[i].Role != llm.RoleUser {
		return errors.New("the command's message is not on the model track")
	}
	msg := history[i]
	for n, c := range calls {
		args, _ := json.Marshal(map[string]string{"command": c.Command})
		res, err := shell.Run(tools.WithCallID(ctx, fmt.Sprintf("%s-shell-%d", turnID, n)), env, args)
		if err != nil {
			return fmt.Errorf("%s", tr("The command's shell command %s did not run: %v. The command was not sent.", c.Command, err))
		}
		if _, ran := res.Meta.(tools.ShellMeta); !ran {
			why := res.Display
			if why == "" {
				why = res.Output
			}
			return fmt.Errorf("%s", tr("The command's shell command %s did not run: %s The command was not sent.", c.Command, why))
		}
		out := res.Output
		if len(out) > MaxShellOutput {
			out = strings.ToValidUTF8(out[:MaxShellOutput], "") + fmt.Sprintf("\n[cut at %d characters]", MaxShellOutput)
		}
		msg.Content = strings.Replace(msg.Content, c.Token, out, 1)
	}
	if err := replace(i, msg); err != nil {
		return err
	}
	history[i] = msg
	return nil
}
