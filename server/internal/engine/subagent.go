package engine

import (
	"context"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/subagent"
	"github.com/govibe/govibe/server/internal/tools"
)

// Sub-agents (investigate, custom agents, browser_sub_agent) are package
// subagent's tools; the engine is their subagent.Host: hidden child
// sessions, models and the SubagentStop hooks.

// subagentTools lists investigate and the custom agents. Malformed
// definitions are reported once per engine (log and a session notice)
// and skipped.
func (e *Engine) subagentTools(ctx context.Context, sid string) []tools.Tool {
	known := map[string]bool{}
	for _, t := range tools.Builtin() {
		known[t.Name()] = true
	}
	defs, problems := subagent.Load(subagent.Dirs(e.opts.Home, e.opts.Roots, e.Trust.Trusted()), func(n string) bool { return known[n] })
	for _, p := range problems {
		if e.reported.first(sid + "\x00" + p.Error()) {
			e.log.Warn("custom agent skipped", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
			e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "warn", Text: e.Tr("Custom agent skipped: %s", p.Error())})
		}
	}
	return subagent.Tools(subagentHost{e}, defs)
}

// subagentHost adapts the engine to subagent.Host.
type subagentHost struct{ e *Engine }

func (h subagentHost) Begin(ctx context.Context, env *tools.Env, title, tag, prompt string) (subagent.Child, error) {
	e, parent := h.e, env.SessionID
	child, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: parent, Kind: store.KindSubagent, Hidden: true, Title: title, Model: e.Profiles.Active().Model,
		ParentMessageID: e.openMessageID(parent), ParentCallID: tools.CallID(ctx)})
	if err != nil {
		return nil, err
	}
	ids, w, err := e.Store.BeginTurn(ctx, child.ID, prompt, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return nil, err
	}
	sink := &turnSink{e: e, t: &turn{id: env.TurnID, sessionID: parent}, w: w, msgID: ids.AssistantMessageID, tag: tag}
	return &childRun{id: child.ID, w: w, sink: sink, notes: func() string { return e.Broker.ClosedNote(parent, env.TurnID) }}, nil
}

func (h subagentHost) AgentModel(ctx context.Context, parent, name, model string) (subagent.Model, error) {
	e := h.e
	profile := e.Profiles.Subagent(ctx, parent, name, model)
	client, err := e.client(profile)
	if err != nil {
		return subagent.Model{}, err
	}
	return subagent.Model{Client: client, ToolCalling: e.Profiles.ToolCalling(profile), OnTextFallback: e.Profiles.OnTextFallback(profile), MaxTokens: profile.MaxOutputTokens}, nil
}

func (h subagentHost) BrowserModel() (subagent.Model, error) {
	profile := h.e.Profiles.Active()
	client, err := h.e.client(profile)
	if err != nil {
		return subagent.Model{}, err
	}
	return subagent.Model{Client: client, MaxTokens: profile.MaxOutputTokens, ToolCalling: firstNonEmpty(profile.ToolCalling, h.e.cfg().ToolCalling)}, nil
}

func (h subagentHost) Browser(childSID string) subagent.BrowserConfig {
	cs := h.e.cfg()
	return subagent.BrowserConfig{ExecutablePath: cs.Browser.ExecutablePath, AllowLocalhost: cs.Browser.AllowLocalhost,
		AllowHosts: cs.Web.AllowHosts, ScreenshotDir: filepath.Join(h.e.opts.StateDir, "browser", childSID)}
}

func (h subagentHost) Stopped(ctx context.Context, turnID, parent, tag string) {
	h.e.hooks.Fire(ctx, turnID, hooks.Input{SessionID: parent, HookEventName: hooks.SubagentStop, AgentTag: tag})
}

func (h subagentHost) Tr(msg string, args ...any) string { return h.e.Tr(msg, args...) }

// childRun is one sub-agent's child session and turn (subagent.Child).
type childRun struct {
	id    string
	w     *store.StreamWriter
	sink  *turnSink
	notes func() string
}

func (c *childRun) ID() string       { return c.id }
func (c *childRun) Sink() agent.Sink { return c.sink }
func (c *childRun) Notes() string    { return c.notes() }
func (c *childRun) CommitUser(ctx context.Context, text string) error {
	return c.w.CommitLLM(ctx, llmUser(text))
}

func (c *childRun) Finish(ctx context.Context, err error, usage *llm.Usage) {
	st := store.StatusDone
	switch {
	case ctx.Err() != nil:
		st = store.StatusCancelled
	case err != nil:
		st = store.StatusError
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err != nil {
		_ = c.w.AddNotice(fctx, store.NoticeError, err.Error())
	}
	_ = c.w.Finalize(fctx, st, usage)
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
