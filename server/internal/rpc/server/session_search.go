package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/storage/store"
)

func (s *Server) SessionSearch(ctx context.Context, p *protocol.SessionSearchParams) (*protocol.SessionSearchResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	hits, err := eng.Store.Search(ctx, p.Query, store.SearchOptions{Limit: p.Limit})
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	out := &protocol.SessionSearchResult{Hits: make([]protocol.SessionSearchHit, 0, len(hits))}
	titles := map[string]string{}
	for _, h := range hits {
		if _, ok := titles[h.SessionID]; !ok {
			if sess, err := eng.Store.GetSession(ctx, h.SessionID); err == nil {
				titles[h.SessionID] = sess.Title
			}
		}
		out.Hits = append(out.Hits, protocol.SessionSearchHit{SessionID: h.SessionID, MessageID: h.MessageID, Title: titles[h.SessionID], Snippet: h.Snippet})
	}
	return out, nil
}
