package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

// Shutdown stops running turns and persists their final state; exit follows.
func (s *Server) Shutdown(ctx context.Context) (*protocol.Empty, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.Close()
	return &protocol.Empty{}, nil
}
