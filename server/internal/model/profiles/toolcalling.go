package profiles

import (
	"cmp"
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/host/config"
)

// ToolCalling is the tool-call protocol a run starts with: the profile's
// or the setting's choice, except that "auto" starts in the text
// protocol for a model whose endpoint already rejected tool definitions
// (remembered per base URL and model in the store, across restarts).
func (r *Resolver) ToolCalling(p Profile) string {
	v, _ := r.o.Settings()
	mode := cmp.Or(p.ToolCalling, config.Typed(v).ToolCalling)
	if mode != "" && mode != agent.ToolCallingAuto {
		return mode
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if learned, err := r.o.Endpoints.EndpointToolCalling(ctx, p.BaseURL, p.Model); err == nil && learned != "" {
		return learned
	} else if err != nil {
		r.o.Log.Warn("reading what the endpoint supports", zap.Error(err))
	}
	return agent.ToolCallingAuto
}

// OnTextFallback remembers that p's endpoint rejected tool definitions
// and says whether this run is the one to tell the user (the first to
// learn it), so the notice appears once per profile, not once per turn
// or per sub-agent.
func (r *Resolver) OnTextFallback(p Profile) func() bool {
	return func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		changed, err := r.o.Endpoints.LearnEndpointToolCalling(ctx, p.BaseURL, p.Model, agent.ToolCallingText)
		if err != nil {
			r.o.Log.Warn("remembering the text tool-call fallback", zap.Error(err))
			return true
		}
		return changed
	}
}
