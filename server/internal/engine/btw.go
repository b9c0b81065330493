package engine

import (
	"context"
	"encoding/json"
	"strings"
)

// parseBTW recognises a side-conversation message: it starts with \btw or
// /btw. The prefix is removed from what the model sees.
func parseBTW(text string) (bool, string) {
	for _, p := range []string{`\btw`, "/btw"} {
		if len(text) >= len(p) && strings.EqualFold(text[:len(p)], p) {
			rest := text[len(p):]
			if rest == "" || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\t' {
				return true, strings.TrimSpace(rest)
			}
		}
	}
	return false, text
}

// btwState is persisted per session while a side conversation lasts.
type btwState struct {
	Active bool `json:"active"`
	// Start is the length of the LLM track when it began: everything from
	// here on belongs to the side conversation.
	Start int `json:"start"`
}

// applyBTWTransition starts a side conversation, or ends one when a normal
// message arrives: its messages then leave the model's track (the UI track
// keeps them, marked as side notes).
func (e *Engine) applyBTWTransition(ctx context.Context, sid string, btw bool) error {
	var st btwState
	if raw, ok, err := e.Store.GetState(ctx, sid, "btw"); err != nil {
		return err
	} else if ok {
		_ = json.Unmarshal(raw, &st)
	}
	switch {
	case btw && !st.Active:
		msgs, err := e.Store.LLMMessages(ctx, sid)
		if err != nil {
			return err
		}
		st = btwState{Active: true, Start: len(msgs)}
		b, _ := json.Marshal(st)
		return e.Store.SetState(ctx, sid, "btw", b)
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
		return e.Store.DeleteState(ctx, sid, "btw")
	}
	return nil
}
