package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotRestore(ctx context.Context, p *protocol.SnapshotRestoreParams) (*protocol.SnapshotRestoreResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	res, err := eng.Rollback.Restore(ctx, p.ID)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternalError, "restore failed: %s", err.Error())
	}
	return &protocol.SnapshotRestoreResult{Changes: toFileChanges(res.Changed), Kept: toKeptChanges(res.Kept), UndoID: res.Before.ID}, nil
}
