package server

import (
	"context"
	"strings"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionRename(ctx context.Context, p *protocol.SessionRenameParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.Title) == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "a session title cannot be empty")
	}
	if err := eng.Sessions.Rename(ctx, p.SessionID, p.Title); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}
