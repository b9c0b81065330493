package server

import (
	"context"
	"strings"

	"github.com/govibe/govibe/protocol"
)

// CommandsList answers the chat input's autocomplete.
func (s *Server) CommandsList(ctx context.Context, p *protocol.CommandsListParams) (*protocol.CommandsListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	prefix := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(p.Prefix), "/"))
	out := &protocol.CommandsListResult{Commands: []protocol.CommandInfo{}}
	for _, c := range eng.Slash.List() {
		if prefix != "" && !strings.HasPrefix(strings.ToLower(c.Name), prefix) {
			continue
		}
		out.Commands = append(out.Commands, protocol.CommandInfo{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint})
	}
	return out, nil
}
