package server

import (
	"context"
	"strings"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
)

// reportPermissionProblems tells the user about invalid permission rules
// where they were written (setting and entry), once per distinct set of
// problems: at start-up and whenever the settings change.
func (s *Server) reportPermissionProblems(eng *engine.Engine) {
	problems := eng.Approvals.PermissionProblems()
	key := strings.Join(problems, "\n")
	s.mu.Lock()
	same := key == s.permProblems
	s.permProblems = key
	s.mu.Unlock()
	if same {
		return
	}
	for _, msg := range problems {
		s.notify(func(ctx context.Context) error {
			return s.client.ServerNotice(ctx, &protocol.ServerNotice{Level: "warning", Message: msg, Action: "openSettings"})
		})
	}
}
