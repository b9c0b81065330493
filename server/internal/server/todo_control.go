package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

// TodoControl is part of the contract for the scheduler issue; until the
// engine schedules todo items it answers with a clear error.
func (s *Server) TodoControl(ctx context.Context, p *protocol.TodoControlParams) (*protocol.Empty, error) {
	if _, err := s.engine(); err != nil {
		return nil, err
	}
	return nil, protocol.Errorf(protocol.CodeInvalidState, "todo scheduling is not available in this version of GoVibe")
}
