package profiles

import (
	"context"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// Endpoints is what the store remembers of each endpoint (base URL and
// model): the tool-call protocol it was found to need, across restarts.
type Endpoints interface {
	EndpointToolCalling(ctx context.Context, baseURL, model string) (string, error)
	LearnEndpointToolCalling(ctx context.Context, baseURL, model, mode string) (changed bool, err error)
}

// Options are what a Resolver reads and how it tells the user.
type Options struct {
	// Settings is the live settings snapshot and the API keys by profile
	// name ("" is the default profile's key).
	Settings func() (config.Values, map[string]string)
	// State holds each session's /model or picker choice
	// (sessionstate.Model).
	State sessionstate.KV
	// Endpoints remembers which endpoints rejected tool definitions.
	Endpoints Endpoints
	// Notice shows a session notice (level info).
	Notice func(sid, text string)
	// Tr localises what the user reads.
	Tr  func(format string, args ...any) string
	Log *zap.Logger
}

// Resolver resolves the profile each role, session, turn, custom command
// and sub-agent uses. It is safe for concurrent use.
type Resolver struct {
	o Options
	// told are the written model names a notice was already given for
	// (once per session, agent and name).
	mu   sync.Mutex
	told map[string]bool
}

// New returns a Resolver reading o.
func New(o Options) *Resolver {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return &Resolver{o: o, told: map[string]bool{}}
}

// Active is the active profile (govibe.model).
func (r *Resolver) Active() Profile {
	v, keys := r.o.Settings()
	return resolve(v, keys)
}

// Named resolves a profile or model name ("" is the active one).
func (r *Resolver) Named(name string) Profile {
	if name == "" {
		return r.Active()
	}
	v, keys := r.o.Settings()
	o := make(map[string]any, len(v)+1)
	for k, x := range v {
		o[k] = x
	}
	o["model"] = name
	return resolve(o, keys)
}

// Session is the active profile with the session's /model choice.
func (r *Resolver) Session(ctx context.Context, sid string) Profile {
	name := ""
	if sid != "" {
		name = sessionstate.Lookup(ctx, r.o.State, sid, sessionstate.Model)
	}
	return r.Named(name)
}

// Turn is the profile a turn of session sid uses: the one its custom
// command names in its frontmatter (command, as Command resolved it),
// else the session's.
func (r *Resolver) Turn(ctx context.Context, sid, command string) Profile {
	if command != "" {
		return r.Named(command)
	}
	return r.Session(ctx, sid)
}

// first says whether key is new to the resolver's notices.
func (r *Resolver) first(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.told[key] {
		return false
	}
	r.told[key] = true
	return true
}
