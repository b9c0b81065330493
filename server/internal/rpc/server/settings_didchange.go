package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/i18n"
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
	// A changed govibe.language applies at once: the engine reads it per
	// message; the server's own notices follow here.
	s.mu.Lock()
	s.lang = i18n.Pick(config.Typed(v).Language, s.locale)
	s.mu.Unlock()
	s.applyLogSettings(v, p.Settings.APIKeys)
	eng.UpdateSettings(v, p.Settings.APIKeys)
	s.settingsNotices(warns)
	s.reportPermissionProblems(eng)
	return nil
}
