package server

import (
	"context"
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
)

// ChatCompact starts summarising the session's earlier messages and
// returns at once; the outcome arrives as a compaction chat/event.
func (s *Server) ChatCompact(ctx context.Context, p *protocol.CompactParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := eng.SessionCompaction.Start(ctx, p.SessionID, compaction.TriggerButton); err != nil {
		if errors.Is(err, compaction.ErrCompacting) {
			return nil, protocol.Errorf(protocol.CodeBusy, "%s", err.Error())
		}
		if nf := notFound(err); nf != err {
			return nil, nf
		}
		return nil, protocol.Errorf(protocol.CodeInvalidState, "%s", err.Error())
	}
	return &protocol.Empty{}, nil
}
