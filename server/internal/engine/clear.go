package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// clearCommand handles "/clear": the session stays, with its transcript
// and its id, but the model forgets it. The model track is emptied, so
// the next request carries only the system prompt and the new message;
// the context files are sent again with that message (as in a new
// session), and a side conversation or a pending memory reminder ends.
// "/new" instead leaves this session as it is and opens another one.
// As in Claude Code, the model's session ends and a new one starts:
// SessionEnd hooks run with reason "clear", then SessionStart hooks with
// source "clear", whose context joins the next message.
func (e *Engine) clearCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	sid := p.SessionID
	if sid == "" {
		return e.answerLocally(ctx, "", e.tr("Nothing to clear: this session has no messages yet."))
	}
	if e.Running(sid) != "" {
		return commandOutcome{}, ErrBusy
	}
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return commandOutcome{}, err
	}
	if err := e.Store.ReplaceLLMMessages(ctx, sid, 0, len(track), nil); err != nil {
		return commandOutcome{}, err
	}
	for _, del := range []func() error{
		func() error { return sessionstate.Delete(ctx, e.Store, sid, sessionstate.ContextFiles) },
		func() error { return sessionstate.Delete(ctx, e.Store, sid, sessionstate.BTW) },
		func() error { return sessionstate.Delete(ctx, e.Store, sid, sessionstate.MemoryReminder) },
	} {
		if err := del(); err != nil {
			return commandOutcome{}, err
		}
	}
	e.hooks.Fire(ctx, "", hooks.Input{SessionID: sid, HookEventName: hooks.SessionEnd, Reason: "clear"})
	e.hooks.SessionStart(ctx, sid, "clear")
	return e.answerLocally(ctx, sid, e.tr("Context cleared: the model no longer sees the earlier messages of this session (they stay here to read)."))
}
