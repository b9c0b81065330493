package engine

import (
	"context"
	"time"

	"github.com/govibe/govibe/server/internal/host/config"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// afterFreeRun continues a free run that stopped after create_todo_list.
// A create_todo_list that failed (bad arguments) does not hand over: the
// free run goes on so the model can correct itself. A plan that was
// created is run by the plan runner.
func (e *Engine) afterFreeRun(ctx context.Context, t *turn, b *begun, sink *turnSink, run *agent.Run, out agent.Outcome) agent.Outcome {
	for out.Stopped == scheduler.ToolCreateTodo && out.Status == agent.StatusDone {
		// A resumed run's calls are in the history, not in out.
		if planrun.Created(append(append([]llm.Message(nil), b.history...), out.Messages...)) {
			if err := slashcmd.StampPlan(ctx, e.Plans, t.sessionID, t.id, TagFree, t.limits); err != nil {
				e.log.Warn("recording the plan's command limits", zap.Error(err))
			}
			if t.mode.ProposesOnly() {
				return out // Plan mode: the plan waits for chat/runPlan
			}
			return e.Plans.Run(ctx, &planTurn{e: e, t: t, b: b, sink: sink}, out, false)
		}
		more := run.Execute(ctx, append(append([]llm.Message(nil), b.history...), out.Messages...), &usageSink{turnSink: sink})
		out = mergeOutcomes(out, more)
	}
	return out
}

// mergeOutcomes is a run's outcome a followed by b.
func mergeOutcomes(a, b agent.Outcome) agent.Outcome {
	a.Usage.Add(b.Usage)
	b.Usage = a.Usage
	b.Rounds += a.Rounds
	b.Messages = append(append([]llm.Message(nil), a.Messages...), b.Messages...)
	return b
}

// resumeSchedule is a turn that continues an interrupted plan: the turn's
// own messages (the user's "continue") belong to the resumed agent.
func (e *Engine) resumeSchedule(ctx context.Context, t *turn, b *begun, sink *turnSink) agent.Outcome {
	return e.Plans.Run(ctx, &planTurn{e: e, t: t, b: b, sink: sink}, agent.Outcome{}, true)
}

// planTurn is a running turn as the plan runner drives it: its open
// message moves from step to step. Used from the turn's goroutine only.
type planTurn struct {
	e    *Engine
	t    *turn
	b    *begun
	sink *turnSink
}

func (p *planTurn) SessionID() string  { return p.t.sessionID }
func (p *planTurn) ID() string         { return p.t.id }
func (p *planTurn) Tag() string        { return p.sink.tag }
func (p *planTurn) SetTag(tag string)  { p.sink.tag = tag }
func (p *planTurn) Notice(text string) { p.sink.Notice(text) }
func (p *planTurn) Tr(msg string, args ...any) string {
	return p.e.Tr(msg, args...)
}
func (p *planTurn) History() []llm.Message { return p.b.history }
func (p *planTurn) FinishStep(u llm.Usage) { p.e.finishStep(p.b.writer, store.StatusDone, u) }
func (p *planTurn) CommitPrompt(ctx context.Context, m llm.Message) error {
	return p.b.writer.CommitLLM(ctx, m)
}

// OpenStep commits a step's first message (the item prompt, tagged) and
// its pending assistant message, which becomes the turn's open message.
func (p *planTurn) OpenStep(ctx context.Context, step scheduler.Step, prompt string) ([]llm.Message, error) {
	e, t, sid, tag := p.e, p.t, p.t.sessionID, step.Tag()
	pm := llm.Message{Role: llm.RoleUser, Content: prompt}
	origin := stepOrigin(step)
	ids, w, err := e.Store.BeginTurn(ctx, sid, prompt, store.TurnOptions{SubAgentTag: tag, Origin: origin, LLM: []llm.Message{pm}})
	if err != nil {
		return nil, err
	}
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.Message, SubAgentTag: tag, MessageID: ids.UserMessageID, MessageSeq: ids.UserSeq, Text: prompt, Origin: origin})
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnStarted, SubAgentTag: tag, MessageID: ids.AssistantMessageID, MessageSeq: ids.AssistantSeq})
	e.mu.Lock()
	t.writer = w
	e.mu.Unlock()
	p.b.writer, p.sink.w, p.sink.msgID, p.sink.tag = w, w, ids.AssistantMessageID, tag
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return nil, err
	}
	if fixed, changed := compact.Sanitize(track); changed {
		track = fixed
	}
	return track, nil
}

// stepOrigin marks a step's prompt as the scheduler's: the model reads it
// as a user message, the transcript must not show it as the user's.
func stepOrigin(s scheduler.Step) string {
	switch {
	case s.Kind == scheduler.StepFinal:
		return store.OriginPlanFinal
	case s.Resume:
		return store.OriginPlanResume
	default:
		return store.OriginPlanStep
	}
}

// RunAgent runs one agent of the plan with the tools of its role.
func (p *planTurn) RunAgent(ctx context.Context, a planrun.Agent, history []llm.Message, wrap func(agent.Sink) agent.Sink) (agent.Outcome, int) {
	e, t := p.e, p.t
	profile := e.Profiles.ForRole(ctx, t.sessionID, profiles.PlanRole(a.Role))
	if t.limits.Model != "" {
		// The custom command that started the turn named its model.
		profile = e.Profiles.Turn(ctx, t.sessionID, t.limits.Model)
	}
	client, err := e.client(profile)
	if err != nil {
		return agent.Outcome{Status: agent.StatusError, Err: err}, 0
	}
	ts, sit := e.TurnTools.RoleTools(ctx, t.tools(), a.Role, a.Tag, a.Final)
	d := toolpolicy.Decide(sit, ts)
	run := &agent.Run{
		Client: client, Tools: ts, Blocked: d.Blocked, Deferred: d.Deferred, Refused: d.Refused, Env: e.toolEnv(ctx, t), System: e.TurnTools.Prompt(t.sessionID, sit, d),
		Translate: e.Tr, MaxRounds: a.MaxRounds, MaxRoundsSetting: "govibe.scheduler.maxAgentTurns", ToolCalling: e.Profiles.ToolCalling(profile), OnTextFallback: e.Profiles.OnTextFallback(profile),
		SessionID: t.sessionID, Purpose: planPurpose(a.Role), MaxTokens: profile.MaxOutputTokens, Prepare: e.Compaction.Prepare(t.sessionID, t.id, a.Tag == TagFree),
		Notes: e.TurnInput.Notes(ctx, t.sessionID, t.id),
	}
	if a.Final {
		run.MaxRounds = e.cfg().MaxInteractions
	}
	return run.Execute(ctx, history, wrap(&usageSink{turnSink: p.sink})), run.MaxRounds
}

// planPurpose keeps the executor's and the evaluator's requests, each
// with its own tools and system prompt, apart from the conversation's in
// the cache-miss accounting: the plan's final run is judged against the
// main agent's requests, not against whichever role spoke last.
func planPurpose(r scheduler.Role) string {
	if r == scheduler.RoleExecutor || r == scheduler.RoleEvaluator {
		return string(r)
	}
	return ""
}

func (e *Engine) finishStep(w *store.StreamWriter, st store.MessageStatus, usage llm.Usage) {
	fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Finalize(fctx, st, &usage); err != nil {
		e.log.Warn("finalising a scheduler step", zap.Error(err))
	}
}

// freeStopAfter makes the free run hand over to the plan runner once a
// round called create_todo_list (never in a side conversation).
func freeStopAfter(t *turn) map[string]bool {
	if t.btw {
		return nil
	}
	return map[string]bool{scheduler.ToolCreateTodo: true}
}

// schedLimits reads govibe.scheduler.*.
func (e *Engine) schedLimits() scheduler.Limits {
	v := e.Settings()
	cs := config.Typed(v)
	return scheduler.Limits{
		MaxRetries:      cs.Scheduler.MaxRetries,
		MaxAgentTurns:   cs.Scheduler.MaxAgentTurns,
		MaxAgentMinutes: cs.Scheduler.MaxAgentMinutes,
	}.Normalized()
}
