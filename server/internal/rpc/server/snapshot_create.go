package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotCreate(ctx context.Context, p *protocol.SnapshotCreateParams) (*protocol.SnapshotCreateResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	made, err := eng.Rollback.SnapshotNow(ctx, p.SessionID, p.Message)
	if err != nil {
		return nil, err
	}
	if len(made) == 0 {
		list, _, err := eng.Rollback.Snapshots("")
		if err != nil || len(list) == 0 {
			return &protocol.SnapshotCreateResult{}, err
		}
		return &protocol.SnapshotCreateResult{Snapshot: toSnapshotInfo(list[0]), Created: false}, nil
	}
	return &protocol.SnapshotCreateResult{Snapshot: toSnapshotInfo(made[0]), Created: true}, nil
}
