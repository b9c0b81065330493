package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SnapshotList(ctx context.Context, p *protocol.SnapshotListParams) (*protocol.SnapshotListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	list, size, err := eng.Rollback.Snapshots(p.SessionID)
	if err != nil {
		return nil, err
	}
	out := &protocol.SnapshotListResult{StoreSize: size, Snapshots: make([]protocol.SnapshotInfo, 0, len(list))}
	for _, x := range list {
		out.Snapshots = append(out.Snapshots, toSnapshotInfo(x))
	}
	return out, nil
}
