package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

// WorkspaceDidChangeTrust applies VS Code's trust change; the engine
// reloads what trust gates and reports what it still skips.
func (s *Server) WorkspaceDidChangeTrust(ctx context.Context, p *protocol.WorkspaceTrustParams) error {
	eng, err := s.engine(ctx)
	if err != nil {
		return err
	}
	eng.SetTrusted(p.Trusted)
	return nil
}
