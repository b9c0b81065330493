package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionCreate(ctx context.Context, p *protocol.SessionCreateParams) (*protocol.SessionInfo, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sum, err := eng.Sessions.Create(ctx, p.Title)
	if err != nil {
		return nil, err
	}
	info := toSessionInfo(sum)
	return &info, nil
}
