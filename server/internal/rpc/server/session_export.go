package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SessionExport(ctx context.Context, p *protocol.SessionExportParams) (*protocol.SessionExportResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	doc, err := eng.Store.Export(ctx, p.SessionID)
	if err != nil {
		return nil, notFound(err)
	}
	return &protocol.SessionExportResult{Document: string(doc)}, nil
}
