package turntools

import (
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/workspace/web"
)

// Web is the one web.Fetcher: every run's web_fetch and @url mention
// share its rate limiter, so a prompt-injected page cannot make parallel
// agents fan out. Its policy comes from web.allowHosts, a user-scope
// setting (a workspace may never widen what the agent reaches).
func (s *Service) Web() *web.Fetcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.web
}

// SettingsChanged rebuilds the fetcher for settings cs, keeping its
// limiter.
func (s *Service) SettingsChanged(cs config.Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.web = newWebFetcher(cs, s.web)
}

// newWebFetcher builds the fetcher for settings cs, keeping old's limiter.
func newWebFetcher(cs config.Settings, old *web.Fetcher) *web.Fetcher {
	f := web.NewFetcher(web.Policy{AllowHosts: cs.Web.AllowHosts})
	if old != nil {
		f.Limiter = old.Limiter
	}
	return f
}
