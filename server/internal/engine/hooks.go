package engine

import (
	"encoding/json"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/hooks"
)

// Lifecycle hooks (Claude Code's format) are hooks.Manager; the engine
// wires it: the settings and trust it loads under, the chat event each run
// becomes, and the points of a session and a turn where events fire
// (UserPromptSubmit and Stop in the turn, SubagentStop, Session*,
// Notification, PreCompact from the compactor's host).

func (e *Engine) newHooks() *hooks.Manager {
	return hooks.NewManager(hooks.ManagerOptions{Home: e.home(), Roots: e.opts.Roots, Trusted: e.trust.Trusted,
		UserSetting: func() json.RawMessage { return userHooks(e.Settings()) }, State: e.Store,
		Publish: func(sid, turnID string, run hooks.Run) {
			e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: KindHook, Text: run.Command, Status: run.Result, Payload: run})
		},
		Notice: e.notice, Tr: e.tr, Log: e.log})
}

// userHooks reads the govibe.hooks setting (an object of the settings
// schema, user scope only, so workspace values never reach here). Older
// clients sent it flattened ("hooks.PreToolUse": [...]); both are read.
func userHooks(v config.Values) json.RawMessage {
	m := map[string]any{}
	for k, val := range config.Typed(v).Hooks {
		m[k] = val
	}
	for k, val := range v {
		if ev, ok := strings.CutPrefix(k, "hooks."); ok {
			m[ev] = val
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}
