package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/config"
)

func (s *Server) SettingsDidChange(ctx context.Context, p *protocol.SettingsDidChangeParams) error {
	eng, err := s.engine(ctx)
	if err != nil {
		return err
	}
	v := config.Flatten(p.Settings.Values)
	s.applyLogSettings(v, p.Settings.APIKeys)
	eng.UpdateSettings(v, p.Settings.APIKeys)
	return nil
}
