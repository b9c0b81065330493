package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotDiff(ctx context.Context, p *protocol.SnapshotDiffParams) (*protocol.SnapshotDiffResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	changes, err := eng.Rollback.SnapshotDiff(ctx, p.ID)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNotFound, "%s", err.Error())
	}
	return &protocol.SnapshotDiffResult{Changes: toFileChanges(changes)}, nil
}
