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
	s.mu.Lock()
	changed := s.trusted != p.Trusted
	s.trusted = p.Trusted
	last := s.settings
	s.mu.Unlock()
	if changed {
		// The workspace's settings were ignored (or applied) under the
		// old trust; apply them under the new one before the project
		// configuration reloads, so both follow the same trust.
		v, warns := effectiveSettings(last, p.Trusted)
		s.applyLogSettings(v, last.APIKeys)
		eng.UpdateSettings(v, last.APIKeys)
		s.settingsNotices(warns)
		s.reportPermissionProblems(eng)
	}
	eng.Trust.Set(p.Trusted)
	return nil
}
