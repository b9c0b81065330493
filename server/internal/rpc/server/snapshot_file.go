package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotFile(ctx context.Context, p *protocol.SnapshotFileParams) (*protocol.SnapshotFileResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	content, exists, binary, err := eng.Rollback.SnapshotFile(p.ID, p.Path)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNotFound, "%s", err.Error())
	}
	return &protocol.SnapshotFileResult{Exists: exists, Content: content, Binary: binary}, nil
}
