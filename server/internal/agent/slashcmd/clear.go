package slashcmd

import (
	"context"

	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// clear handles "/clear": the session stays, with its transcript and its
// id, but the model forgets it. The model track is emptied, so the next
// request carries only the system prompt and the new message; the context
// files are sent again with that message (as in a new session), and a
// side conversation or a pending memory reminder ends. "/new" instead
// leaves this session as it is and opens another one. As in Claude Code,
// the model's session ends and a new one starts: SessionEnd hooks run with
// reason "clear", then SessionStart hooks with source "clear", whose
// context joins the next message.
func (c *Commands) clear(ctx context.Context, p Params, _ string) (Outcome, error) {
	sid := p.SessionID
	if sid == "" {
		return c.answer(ctx, "", c.h.Tr("Nothing to clear: this session has no messages yet."))
	}
	if err := c.h.Idle(sid); err != nil {
		return Outcome{}, err
	}
	track, err := c.st.LLMMessages(ctx, sid)
	if err != nil {
		return Outcome{}, err
	}
	if err := c.st.ReplaceLLMMessages(ctx, sid, 0, len(track), nil); err != nil {
		return Outcome{}, err
	}
	for _, del := range []func() error{
		func() error { return sessionstate.Delete(ctx, c.st, sid, sessionstate.ContextFiles) },
		func() error { return sessionstate.Delete(ctx, c.st, sid, sessionstate.BTW) },
		func() error { return sessionstate.Delete(ctx, c.st, sid, sessionstate.MemoryReminder) },
	} {
		if err := del(); err != nil {
			return Outcome{}, err
		}
	}
	c.o.Hooks.Fire(ctx, "", hooks.Input{SessionID: sid, HookEventName: hooks.SessionEnd, Reason: "clear"})
	c.o.Hooks.SessionStart(ctx, sid, "clear")
	return c.answer(ctx, sid, c.h.Tr("Context cleared: the model no longer sees the earlier messages of this session (they stay here to read)."))
}
