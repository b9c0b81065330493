package server

import (
	"context"
	"strings"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionSetModel(ctx context.Context, p *protocol.SessionSetModelParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.Model) == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "a model name cannot be empty: name a profile from govibe.models or a model")
	}
	if err := eng.Sessions.SetModel(ctx, p.SessionID, strings.TrimSpace(p.Model)); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}
