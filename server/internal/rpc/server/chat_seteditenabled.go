package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) ChatSetEditEnabled(ctx context.Context, p *protocol.ChatSetEditEnabledParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := eng.SetEditEnabled(ctx, p.SessionID, p.Enabled); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}
