package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionImport(ctx context.Context, p *protocol.SessionImportParams) (*protocol.SessionInfo, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sum, err := eng.Import(ctx, []byte(p.Document))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	info := toSessionInfo(sum)
	return &info, nil
}
