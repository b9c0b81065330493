package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/storage/sessions"
)

func (s *Server) SessionImport(ctx context.Context, p *protocol.SessionImportParams) (*protocol.SessionInfo, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sess, err := eng.Store.Import(ctx, []byte(p.Document))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	info := toSessionInfo(sessions.Summary{Session: sess})
	return &info, nil
}
