package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// SessionLoad returns a page of the UI track (oldest first within the
// page) and the live state a reconnecting client needs.
func (s *Server) SessionLoad(ctx context.Context, p *protocol.SessionLoadParams) (*protocol.SessionLoadResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	l, err := eng.Sessions.Load(ctx, p.SessionID, p.BeforeSeq, p.Limit)
	if err != nil {
		return nil, notFound(err)
	}
	out := &protocol.SessionLoadResult{
		Session: toSessionInfo(l.Session), HasMore: l.Page.HasMore, LastSeq: l.LastSeq,
		RunningTurnID: l.RunningTurnID, EditEnabled: l.EditEnabled, Interrupted: l.Interrupted,
		Messages: make([]protocol.Message, 0, len(l.Page.Messages)), Pending: []protocol.ConfirmRequest{},
	}
	turns := eng.Rollback.Offered(ctx, p.SessionID)
	extras := eng.TurnInput.MessageExtras(ctx, p.SessionID)
	for _, m := range l.Page.Messages {
		w := toMessage(m)
		// A turn is known by its user message's id; the stored message
		// carries the turn's before-snapshots so the client can offer to
		// roll it back without reconstructing anything.
		// A message the engine wrote inside a turn (the scheduler's
		// closing prompt) starts none; a button's message does.
		if w.Role == "user" && (m.SubAgentTag == "" || m.SubAgentTag == engine.TagFree) && (m.Origin == "" || m.Origin == store.OriginControl) {
			w.TurnID = m.ID
			if refs := turns[m.ID]; len(refs) > 0 {
				w.Snapshots = eventview.Snapshots(refs)
			}
		}
		if ex, ok := extras[m.ID]; ok && w.Role == "user" {
			setExtras(&w, ex)
		}
		out.Messages = append(out.Messages, w)
	}
	for _, r := range l.SubAgents {
		run := protocol.SubAgentRun{SessionID: r.Session.ID, Tag: r.Tag, Title: r.Session.Title,
			AnchorMessageID: r.Session.ParentMessageID, CallID: r.Session.ParentCallID, Earlier: r.Earlier, Messages: make([]protocol.Message, 0, len(r.Messages))}
		for _, m := range r.Messages {
			run.Messages = append(run.Messages, toMessage(m))
		}
		out.SubAgents = append(out.SubAgents, run)
	}
	if l.Todo != nil {
		todo := eventview.Todo(*l.Todo)
		out.Todo = &todo
	}
	out.Mode = string(eng.Modes.Mode(ctx, p.SessionID))
	out.ModeState = modeState(ctx, eng, p.SessionID)
	markCompactions(out.Messages, eng.Compaction.Records(ctx, p.SessionID))
	use := eventview.Context(eng.ContextUse(ctx, p.SessionID))
	out.Context = &use
	for _, c := range l.Pending {
		out.Pending = append(out.Pending, toConfirmRequest(c))
	}
	for _, d := range eng.Broker.Dialogs(p.SessionID) {
		out.Dialogs = append(out.Dialogs, protocol.OpenDialog{Question: toConfirmRequest(d.Question), Reply: d.Reply})
	}
	return out, nil
}
