package engine

import (
	"context"
	"errors"

	"github.com/govibe/govibe/server/internal/commands"
)

// slashHandler runs a slash command typed as a chat message. args is the
// text after the command word.
type slashHandler func(ctx context.Context, p SendParams, args string) (commandOutcome, error)

// commandOutcome is what Send does after a command: either the command
// answered the message itself (handled: sessionID and turnID name the job
// whose turnFinished closes it), or the message goes on as a turn with
// text, as a side conversation when btw.
type commandOutcome struct {
	handled           bool
	sessionID, turnID string
	text              string
	btw               bool
	// model and allowed (a custom command's frontmatter) hold for the
	// turn the command starts.
	model   string
	allowed []string
}

// Chat commands.
const (
	// CompactCommand is the chat text that compacts instead of starting a turn.
	CompactCommand = "/compact"
	btwCommand     = "btw"
)

// newCommands registers the engine's slash commands. Further commands
// (/help, /new, custom markdown commands) register here too.
func (e *Engine) newCommands() *commands.Registry[slashHandler] {
	r := commands.New[slashHandler]()
	for _, c := range append([]commands.Command[slashHandler]{
		{Name: "compact", Description: "Summarise the earlier messages of this session now", Handler: e.compactCommand},
		{Name: btwCommand, Aliases: []string{`\btw`}, ArgumentHint: "<question>",
			Description: "Ask a side question; it leaves the conversation when the next normal message arrives", Handler: btwHandler},
		{Name: "reconcile", ArgumentHint: "<intent>", Description: "Reconcile mode: draft a Vibe Manifest from the intent", Handler: e.reconcileCommand},
	}, e.builtinCommands()...) {
		if err := r.Register(c); err != nil {
			panic(err) // the built-in table is constant: a clash is a programming error
		}
	}
	return r
}

// compactCommand handles "/compact": it compacts in the background
// instead of starting a model turn. Its turn id names the job; a
// turnFinished event with that id closes it.
func (e *Engine) compactCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	if p.SessionID == "" {
		return commandOutcome{}, errors.New("/compact needs a session with messages to summarise")
	}
	job, err := e.StartCompaction(ctx, p.SessionID, TriggerCommand)
	if err != nil {
		return commandOutcome{}, err
	}
	return commandOutcome{handled: true, sessionID: p.SessionID, turnID: job}, nil
}

// btwHandler starts or continues a side conversation: the prefix is
// removed from what the model sees.
func btwHandler(_ context.Context, _ SendParams, args string) (commandOutcome, error) {
	return commandOutcome{text: args, btw: true}, nil
}

// parseBTW recognises a side-conversation message (\btw or /btw) and
// returns the text without its prefix.
func (e *Engine) parseBTW(text string) (bool, string) {
	if c, args, ok := e.commands.Match(text); ok && c.Name == btwCommand {
		return true, args
	}
	return false, text
}
