package turninput

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/mentions"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// The context files and attachments of a user message are told to the UI
// live (the message event's payload) and kept in session state by message
// id, so session/load shows them again after a reload or a restart. Only
// what the UI shows is kept: an attachment's content lives in the model
// track's user message, not twice.

// Extras is what the UI shows on a user message: the context files
// loaded with it and the attachments its mentions produced.
type Extras struct {
	ContextFiles []string
	Attachments  []mentions.Attachment
}

// Record keeps a user message's extras; nothing is written when it has
// none. The caller holds the session's running slot (the engine's
// beginTurn), so two writes for one session never interleave.
func (a *Assembler) Record(ctx context.Context, sid, messageID string, ex Extras) {
	if len(ex.ContextFiles) == 0 && len(ex.Attachments) == 0 {
		return
	}
	rec := sessionstate.MessageExtras{ContextFiles: ex.ContextFiles}
	for _, at := range ex.Attachments {
		rec.Attachments = append(rec.Attachments, sessionstate.AttachmentRecord{Kind: string(at.Kind), Raw: at.Raw, Chars: at.Chars, Truncated: at.Truncated, Error: at.Error})
	}
	all := sessionstate.Lookup(ctx, a.d.Store, sid, sessionstate.Extras)
	if all == nil {
		all = map[string]sessionstate.MessageExtras{}
	}
	all[messageID] = rec
	if err := sessionstate.Set(ctx, a.d.Store, sid, sessionstate.Extras, all); err != nil {
		a.d.Log.Warn("recording a message's attachments", zap.Error(err))
	}
}

// MessageExtras maps the session's user messages (by id) to what was sent
// with them.
func (a *Assembler) MessageExtras(ctx context.Context, sid string) map[string]Extras {
	all := sessionstate.Lookup(ctx, a.d.Store, sid, sessionstate.Extras)
	out := make(map[string]Extras, len(all))
	for id, rec := range all {
		ex := Extras{ContextFiles: rec.ContextFiles}
		for _, at := range rec.Attachments {
			ex.Attachments = append(ex.Attachments, mentions.Attachment{Mention: mentions.Mention{Kind: mentions.Kind(at.Kind), Raw: at.Raw},
				Title: at.Raw, Chars: at.Chars, Truncated: at.Truncated, Error: at.Error})
		}
		out[id] = ex
	}
	return out
}
