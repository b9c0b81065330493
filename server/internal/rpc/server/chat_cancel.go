package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

// ChatCancel stops the session's running turn; it returns once the turn
// has persisted its final state (or after a bounded wait).
func (s *Server) ChatCancel(ctx context.Context, p *protocol.ChatCancelParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	eng.Cancel(p.SessionID)
	return &protocol.Empty{}, nil
}
