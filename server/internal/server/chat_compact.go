package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

// ChatCompact is part of the contract for the compaction issue; until the
// engine implements compaction it answers with a clear error.
func (s *Server) ChatCompact(ctx context.Context, p *protocol.CompactParams) (*protocol.Empty, error) {
	if _, err := s.engine(); err != nil {
		return nil, err
	}
	return nil, protocol.Errorf(protocol.CodeInvalidState, "context compaction is not available in this version of GoVibe")
}
