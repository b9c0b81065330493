package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/subagent"
	"github.com/govibe/govibe/server/internal/agent/turntools"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// newTurnTools is what decides a turn's tools and their environment
// (package turntools), with its collaborators; the turns' state stays
// the engine's, read through Live and Latest.
func newTurnTools(e *Engine) *turntools.Service {
	runs := newSubagentRuns(e)
	return turntools.New(turntools.Deps{Profiles: e.Profiles, Plans: e.Plans, Compaction: e.SessionCompaction, Hooks: e.hooks,
		Approvals: e.Approvals, Prompt: e.systemPromptOf, Subagents: runs.Tools, MCP: e.mcpTools,
		Modes:   func(ctx context.Context, sid string) moderun.Turn { return e.Modes.Turn(ctx, sid) },
		Browser: func() tools.Tool { return tools.ConfirmedBrowser(subagent.Browser(runs)) },
		Live: func(sid string) turntools.Turn {
			e.mu.Lock()
			defer e.mu.Unlock()
			return limitsOf(sid, e.running[sid])
		},
		Latest: func(sid string) turntools.Turn {
			e.mu.Lock()
			defer e.mu.Unlock()
			return limitsOf(sid, e.last[sid])
		},
		Settings: e.cfg, Notice: func(level, msg string) { e.opts.OnNotice(level, msg, "") }, Tr: e.Tr, Log: e.log,
		Roots: e.opts.Roots, FreeTag: TagFree, NoEditor: e.opts.Host == nil})
}

// limitsOf copies what the tool list and profile depend on, never the
// fields the turn's goroutine changes.
func limitsOf(sid string, t *turn) turntools.Turn {
	if t == nil {
		return turntools.Turn{SessionID: sid}
	}
	return turntools.Turn{SessionID: sid, Limits: t.limits, Mode: t.mode}
}

// tools is turn t as its tools see it.
func (t *turn) tools() turntools.Turn {
	return turntools.Turn{SessionID: t.sessionID, ID: t.id, Text: t.text, BTW: t.btw, Limits: t.limits, Mode: t.mode,
		MessageID: func() string {
			if t.writer != nil {
				return t.writer.MessageID()
			}
			return ""
		}}
}
