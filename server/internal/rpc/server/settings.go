package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/gate/trust"
	"github.com/govibe/govibe/server/internal/host/config"
)

// effectiveSettings turns the editor's snapshot into the values the engine
// reads: renamed keys converted, the workspace's values laid over the
// user's as the schema's scopes allow. The warnings name each key that was
// converted or ignored.
func effectiveSettings(p protocol.Settings, trusted bool) (config.Values, []config.Warning) {
	user, warns := config.Normalize(config.Flatten(p.Values))
	v, wsWarns := config.ApplyWorkspace(user, config.Flatten(p.Workspace), trusted)
	return v, append(warns, wsWarns...)
}

// settingsNotices sends each settings warning as a server/notice, once per
// distinct text for the life of the connection (settings/didChange repeats
// the whole snapshot on every edit).
func (s *Server) settingsNotices(warns []config.Warning) {
	s.mu.Lock()
	lang := s.lang
	if s.warned == nil {
		s.warned = map[string]bool{}
	}
	type notice struct{ msg, action string }
	var out []notice
	for _, w := range warns {
		m := w.In(lang)
		if !s.warned[m] {
			s.warned[m] = true
			n := notice{msg: m, action: "openSettings"}
			if w.Untrusted {
				// Withdrawn with the untrusted-workspace notice once trust
				// is granted; until then trusting is the remedy.
				n.action = trust.ActionTrustWorkspace
			}
			out = append(out, n)
		}
	}
	s.mu.Unlock()
	for _, n := range out {
		n := n
		s.log.Warn(n.msg)
		s.notify(func(ctx context.Context) error {
			return s.client.ServerNotice(ctx, &protocol.ServerNotice{Level: "warning", Message: n.msg, Action: n.action})
		})
	}
}
