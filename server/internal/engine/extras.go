package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/mentions"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// The context files and attachments of a user message are told to the UI
// live (the message event's payload) and kept in session state by message
// id, so session/load shows them again after a reload or a restart. Only
// what the UI shows is kept: an attachment's content lives in the model
// track's user message, not twice.

// recordExtras keeps a user message's extras; nothing is written when it
// has none. Only beginTurn calls it, while the turn holds the session's
// running slot, so two writes for one session never interleave.
func (e *Engine) recordExtras(ctx context.Context, sid, messageID string, ex UserExtras) {
	if len(ex.ContextFiles) == 0 && len(ex.Attachments) == 0 {
		return
	}
	rec := sessionstate.MessageExtras{ContextFiles: ex.ContextFiles}
	for _, a := range ex.Attachments {
		rec.Attachments = append(rec.Attachments, sessionstate.AttachmentRecord{Kind: string(a.Kind), Raw: a.Raw, Chars: a.Chars, Truncated: a.Truncated, Error: a.Error})
	}
	all := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Extras)
	if all == nil {
		all = map[string]sessionstate.MessageExtras{}
	}
	all[messageID] = rec
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.Extras, all); err != nil {
		e.log.Warn("recording a message's attachments", zap.Error(err))
	}
}

// MessageExtras maps the session's user messages (by id) to what was sent
// with them.
func (e *Engine) MessageExtras(ctx context.Context, sid string) map[string]UserExtras {
	all := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Extras)
	out := make(map[string]UserExtras, len(all))
	for id, rec := range all {
		ex := UserExtras{ContextFiles: rec.ContextFiles}
		for _, a := range rec.Attachments {
			ex.Attachments = append(ex.Attachments, mentions.Attachment{Mention: mentions.Mention{Kind: mentions.Kind(a.Kind), Raw: a.Raw},
				Title: a.Raw, Chars: a.Chars, Truncated: a.Truncated, Error: a.Error})
		}
		out[id] = ex
	}
	return out
}
