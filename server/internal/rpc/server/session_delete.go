package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionDelete(ctx context.Context, p *protocol.SessionDeleteParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := eng.Sessions.Delete(ctx, p.SessionID); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}
