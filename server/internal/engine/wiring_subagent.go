package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/subagent"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// newSubagentRuns is the sub-agents' host (package subagent): their runs
// are hidden child sessions; what is the engine's is the turn's sink,
// the open message and the models.
func newSubagentRuns(e *Engine) *subagent.Runs {
	return subagent.NewRuns(subagent.RunsDeps{Store: e.Store, Hooks: e.hooks, Settings: e.cfg, Tr: e.Tr, Log: e.log,
		Model: func() string { return e.Profiles.Active().Model }, OpenMessage: e.openMessageID, ClosedNote: e.Broker.ClosedNote,
		Sink: func(parent, turnID string, w *store.StreamWriter, msgID, tag string) agent.Sink {
			return &turnSink{e: e, t: &turn{id: turnID, sessionID: parent}, w: w, msgID: msgID, tag: tag}
		},
		AgentModel: func(ctx context.Context, parent, name, model string) (subagent.Model, error) {
			profile := e.Profiles.Subagent(ctx, parent, name, model)
			client, err := e.client(profile)
			if err != nil {
				return subagent.Model{}, err
			}
			return subagent.Model{Client: client, ToolCalling: e.Profiles.ToolCalling(profile), OnTextFallback: e.Profiles.OnTextFallback(profile), MaxTokens: profile.MaxOutputTokens}, nil
		},
		BrowserModel: func() (subagent.Model, error) {
			profile := e.Profiles.Active()
			client, err := e.client(profile)
			if err != nil {
				return subagent.Model{}, err
			}
			return subagent.Model{Client: client, MaxTokens: profile.MaxOutputTokens, ToolCalling: firstNonEmpty(profile.ToolCalling, e.cfg().ToolCalling)}, nil
		},
		Home: e.opts.Home, Roots: e.opts.Roots, Trusted: e.Trust.Trusted, StateDir: e.opts.StateDir,
		Warn: func(sid, text string) {
			e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "warn", Text: text})
		}})
}

func llmUser(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: text} }

// openMessageID is the parent's message open now (the turn's current
// assistant message): a child session records it so a reopened session
// shows the sub-agent's group where it ran.
func (e *Engine) openMessageID(sid string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.running[sid]; t != nil && t.writer != nil {
		return t.writer.MessageID()
	}
	return ""
}
