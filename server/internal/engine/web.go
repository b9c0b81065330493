package engine

import (
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/web"
)

// webFetcher is the engine's one web.Fetcher: every run's web_fetch and
// @url mention share its rate limiter, so a prompt-injected page cannot
// make parallel agents fan out. Its policy comes from web.allowHosts, a
// user-scope setting (a workspace may never widen what the agent reaches).
func (e *Engine) webFetcher() *web.Fetcher {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.web
}

// newWebFetcher builds the fetcher for settings v, keeping old's limiter.
func newWebFetcher(v config.Values, old *web.Fetcher) *web.Fetcher {
	f := web.NewFetcher(web.Policy{AllowHosts: config.Typed(v).Web.AllowHosts})
	if old != nil {
		f.Limiter = old.Limiter
	}
	return f
}
