package engine

import (
	"context"
	"errors"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// btwState is persisted per session while a side conversation lasts.
type btwState = sessionstate.BTWState

// applyBTWTransition starts a side conversation, or ends one when a normal
// message arrives: its messages then leave the model's track (the UI track
// keeps them, marked as side notes).
func (e *Engine) applyBTWTransition(ctx context.Context, sid string, btw bool) error {
	st, _, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.BTW)
	if err != nil && !errors.Is(err, sessionstate.ErrCorrupt) {
		return err
	}
	switch {
	case btw && !st.Active:
		msgs, err := e.Store.LLMMessages(ctx, sid)
		if err != nil {
			return err
		}
		st = btwState{Active: true, Start: len(msgs)}
		return sessionstate.Set(ctx, e.Store, sid, sessionstate.BTW, st)
	case !btw && st.Active:
		msgs, err := e.Store.LLMMessages(ctx, sid)
		if err != nil {
			return err
		}
		if st.Start < len(msgs) {
			if err := e.Store.ReplaceLLMMessages(ctx, sid, st.Start, len(msgs), nil); err != nil {
				return err
			}
		}
		return sessionstate.Delete(ctx, e.Store, sid, sessionstate.BTW)
	}
	return nil
}
