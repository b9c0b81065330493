package main

import (
	"flag"
	"os"

	"github.com/govibe/govibe/server/internal/host/config"
)

// modelFlags are the flags of a headless run that exec and eval share:
// the model and its endpoint, where the key is, the tool-round cap and
// setting overrides. Each command validates the values its own way.
type modelFlags struct {
	baseURL, model, keyEnv string
	maxTurns               int
	sets                   multiFlag
}

// register declares the flags on fs; maxTurns is the command's default
// for --max-turns, described by turnsUsage.
func (m *modelFlags) register(fs *flag.FlagSet, maxTurns int, turnsUsage string) {
	fs.StringVar(&m.baseURL, "base-url", "", "OpenAI-compatible base URL (default: the apiBaseUrl setting)")
	fs.StringVar(&m.model, "model", "", "model name or govibe.models profile (default: the model setting)")
	fs.StringVar(&m.keyEnv, "api-key-env", "GOVIBE_API_KEY", "environment variable holding the API key")
	fs.IntVar(&m.maxTurns, "max-turns", maxTurns, turnsUsage)
	fs.Var(&m.sets, "set", "KEY=VALUE: override a govibe.* setting (repeatable)")
}

// extra is what the flags set over the user's settings: the base URL and
// model when given, and the tool-round cap when not negative.
func (m *modelFlags) extra() config.Values {
	v := config.Values{}
	if m.baseURL != "" {
		v["apiBaseUrl"] = m.baseURL
	}
	if m.model != "" {
		v["model"] = m.model
	}
	if m.maxTurns >= 0 {
		v["maxInteractions"] = float64(m.maxTurns)
	}
	return v
}

// takeKey reads the API key from its variable and unsets it: from then
// on the key lives in the returned map only, so nothing started later
// inherits it.
func (m *modelFlags) takeKey() map[string]string {
	keys := map[string]string{}
	if k := os.Getenv(m.keyEnv); k != "" {
		keys[""] = k
	}
	os.Unsetenv(m.keyEnv)
	return keys
}
