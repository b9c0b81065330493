package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
)

func (s *Server) SettingsDidChange(ctx context.Context, p *protocol.SettingsDidChangeParams) error {
	eng, err := s.engine(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	trusted := s.trusted
	s.settings = p.Settings
	s.mu.Unlock()
	v, warns := effectiveSettings(p.Settings, trusted)
	s.applyLogSettings(v, p.Settings.APIKeys)
	eng.UpdateSettings(v, p.Settings.APIKeys)
	s.settingsNotices(warns)
	s.reportPermissionProblems(eng)
	return nil
}
