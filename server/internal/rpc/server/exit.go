package server

import "context"

// Exit ends the process: 0 after a shutdown, 1 otherwise, as in LSP.
func (s *Server) Exit(ctx context.Context) error {
	s.mu.Lock()
	clean := s.shutdown
	s.mu.Unlock()
	s.Close()
	code := 1
	if clean {
		code = 0
	}
	s.exit(code)
	return nil
}
