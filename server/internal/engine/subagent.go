package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/hooks"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/subagent"
	"github.com/govibe/govibe/server/internal/tools"
)

// subagentTool is investigate or agent_<name>: it runs a bounded agent in
// a hidden child session and returns only its result. Immutable, so safe
// for concurrent use; each call builds its own run.
type subagentTool struct {
	e   *Engine
	def subagent.Def
	// investigate requires a complete_task report.
	investigate bool
}

func (s *subagentTool) Name() string {
	if s.investigate {
		return subagent.InvestigateName
	}
	return s.def.ToolName()
}

func (s *subagentTool) Description() string {
	if s.investigate {
		return subagent.InvestigateDesc
	}
	return fmt.Sprintf("Delegate to the %q sub-agent (%s). It runs with its own context and tools: %s. You receive only its final answer.",
		s.def.Name, s.def.Description, strings.Join(s.def.Tools, ", "))
}

func (s *subagentTool) Schema() json.RawMessage { return subagent.ObjectiveSchema }

// ReadOnly is true only for investigate: custom agents may hold write tools.
func (s *subagentTool) ReadOnly() bool { return s.investigate }

// subagentTools lists investigate and the custom agents. Malformed
// definitions are reported once per engine (log and a session notice)
// and skipped.
func (e *Engine) subagentTools(ctx context.Context, sid string) []tools.Tool {
	out := []tools.Tool{&subagentTool{e: e, investigate: true, def: subagent.Def{Name: subagent.InvestigateName,
		Tools: subagent.InvestigateTools, Prompt: subagent.InvestigatePrompt}}}
	defs, problems := e.customAgents()
	for _, p := range problems {
		if e.reported.first(sid + "\x00" + p.Error()) {
			e.log.Warn("custom agent skipped", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
			e.Bus.Publish(Event{SessionID: sid, Kind: KindNotice, Status: "warn", Text: e.tr("Custom agent skipped: %s", p.Error())})
		}
	}
	for _, d := range defs {
		out = append(out, &subagentTool{e: e, def: d})
	}
	return out
}

func (e *Engine) customAgents() ([]subagent.Def, []subagent.Problem) {
	known := map[string]bool{}
	for _, t := range tools.Builtin() {
		known[t.Name()] = true
	}
	return subagent.Load(subagent.Dirs(e.home(), e.opts.Roots, e.trust.Trusted()), func(n string) bool { return known[n] })
}

func (s *subagentTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	objective, err := subagent.ParseObjective(raw)
	if err != nil {
		return tools.Fail(s.Name() + ": " + err.Error()), nil
	}
	e := s.e
	parent := env.SessionID
	title := s.Name() + ": " + objective
	if len(title) > 80 {
		title = title[:80] + "…"
	}
	child, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: parent, Kind: store.KindSubagent, Hidden: true, Title: title, Model: e.profile().Model,
		ParentMessageID: e.openMessageID(parent), ParentCallID: tools.CallID(ctx)})
	if err != nil {
		return tools.Result{}, err
	}
	// Events are tagged "investigate" or "agent:<name>", the form
	// executor:N and evaluator:N also take.
	tag := subagent.InvestigateName
	if !s.investigate {
		tag = "agent:" + s.def.Name
	}
	ids, w, err := e.Store.BeginTurn(ctx, child.ID, objective, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return tools.Result{}, err
	}
	// Progress is published on the parent session under the agent's tag
	// (the UI shows it collapsed); everything is persisted in the child.
	sink := &turnSink{e: e, t: &turn{id: env.TurnID, sessionID: parent}, w: w, msgID: ids.AssistantMessageID, tag: tag}
	profile := e.roleProfileFor(ctx, parent, subagentRole(s.def.Name))
	if s.def.Model != "" {
		e.mu.Lock()
		v, keys := cloneValues(e.settings), e.apiKeys
		e.mu.Unlock()
		v["model"] = s.def.Model
		profile = resolveProfile(v, keys)
	}
	client, err := e.client(profile)
	if err != nil {
		return tools.Result{}, err
	}
	ts, complete := s.allowed()
	// The allow-list is enforced twice: only these tools are offered, and
	// the loop refuses any other name.
	childEnv := *env
	childEnv.SessionID = child.ID
	run := &agent.Run{Client: client, Tools: ts, Env: &childEnv, System: s.def.Prompt, Translate: e.tr,
		ToolCalling: e.toolCalling(profile), OnTextFallback: e.onTextFallback(profile), SessionID: child.ID, MaxTokens: profile.MaxOutputTokens}
	task := subagent.Task{Run: run, Objective: objective, Complete: complete, Sink: sink,
		MaxTurns: subagent.InvestigateMaxTurns, MaxTime: subagent.InvestigateMaxTime}
	// The objective is the child's first model message.
	if err := w.CommitLLM(ctx, llmUser(objective)); err != nil {
		return tools.Result{}, err
	}
	out := subagent.Execute(ctx, task)
	e.hooks.Fire(context.WithoutCancel(ctx), env.TurnID, hooks.Input{SessionID: parent, HookEventName: hooks.SubagentStop, AgentTag: tag})
	st := store.StatusDone
	switch {
	case ctx.Err() != nil:
		st = store.StatusCancelled
	case out.Err != nil:
		st = store.StatusError
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if out.Err != nil {
		_ = w.AddNotice(fctx, store.NoticeError, out.Err.Error())
	}
	_ = w.Finalize(fctx, st, &out.Usage)
	meta := map[string]any{"childSession": child.ID, "turns": out.Turns, "corrections": out.Corrections}
	if ctx.Err() != nil {
		return tools.Result{}, ctx.Err()
	}
	if s.investigate {
		if out.Report == nil {
			return tools.Result{OK: false, Output: fmt.Sprintf("investigate did not return a valid report: %v", out.Err), Meta: meta}, nil
		}
		return tools.Result{OK: true, Output: out.Report.JSON(), Meta: meta}, nil
	}
	if out.Err != nil {
		return tools.Result{OK: false, Output: fmt.Sprintf("%s stopped: %v\nLast reply:\n%s", s.Name(), out.Err, out.Text), Meta: meta}, nil
	}
	return tools.Result{OK: true, Output: out.Text, Meta: meta}, nil
}

// allowed builds the sub-agent's tools: exactly its allow-list (plus
// complete_task for the investigator).
func (s *subagentTool) allowed() ([]tools.Tool, *subagent.CompleteTask) {
	reg := tools.NewRegistry(tools.Builtin()...)
	var ts []tools.Tool
	names := s.def.Tools
	if s.def.AllTools {
		names = reg.Names()
	}
	for _, n := range names {
		if t, ok := reg.Get(n); ok && (!s.investigate || t.ReadOnly()) {
			ts = append(ts, t)
		}
	}
	if !s.investigate {
		return ts, nil
	}
	c := &subagent.CompleteTask{}
	return append(ts, c), c
}

func cloneValues(v config.Values) config.Values {
	out := make(config.Values, len(v)+1)
	for k, x := range v {
		out[k] = x
	}
	return out
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
