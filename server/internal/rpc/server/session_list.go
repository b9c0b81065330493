package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionList(ctx context.Context, p *protocol.SessionListParams) (*protocol.SessionListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	list, err := eng.Sessions.List(ctx, p.Limit)
	if err != nil {
		return nil, err
	}
	out := &protocol.SessionListResult{Sessions: make([]protocol.SessionInfo, 0, len(list))}
	for _, x := range list {
		out.Sessions = append(out.Sessions, toSessionInfo(x))
	}
	return out, nil
}
