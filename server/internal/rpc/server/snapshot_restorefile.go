package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotRestoreFile(ctx context.Context, p *protocol.SnapshotRestoreFileParams) (*protocol.SnapshotRestoreResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	res, err := eng.Rollback.RestoreFile(ctx, p.ID, p.Path)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternalError, "restore failed: %s", err.Error())
	}
	return &protocol.SnapshotRestoreResult{Changes: toFileChanges(res.Changed), UndoID: res.Before.ID}, nil
}
