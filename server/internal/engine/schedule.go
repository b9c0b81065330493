package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/store"
)

// afterFreeRun continues a free run that stopped after create_todo_list.
// A create_todo_list that failed (bad arguments) does not hand over: the
// free run goes on so the model can correct itself. A plan that was
// created is run by the scheduler.
func (e *Engine) afterFreeRun(ctx context.Context, t *turn, b *begun, sink *turnSink, run *agent.Run, out agent.Outcome) agent.Outcome {
	for out.Stopped == scheduler.ToolCreateTodo && out.Status == agent.StatusDone {
		if planCreated(out.Messages) {
			return e.schedule(ctx, t, b, sink, out, false)
		}
		more := run.Execute(ctx, append(append([]llm.Message(nil), b.history...), out.Messages...), e.meterSink(sink))
		out = mergeOutcomes(out, more)
	}
	return out
}

func mergeOutcomes(a, b agent.Outcome) agent.Outcome {
	b.Usage.Add(a.Usage)
	b.Rounds += a.Rounds
	b.Messages = append(append([]llm.Message(nil), a.Messages...), b.Messages...)
	return b
}

// planCreated reports whether the last round's create_todo_list calls
// succeeded, from their tool results.
func planCreated(msgs []llm.Message) bool {
	ids := map[string]bool{}
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == llm.RoleAssistant {
			for _, c := range m.ToolCalls {
				if c.Name == scheduler.ToolCreateTodo {
					ids[c.ID] = true
				}
			}
			break
		}
	}
	for _, m := range msgs {
		if m.Role == llm.RoleTool && ids[m.ToolCallID] && !strings.HasPrefix(m.Content, "Error: ") {
			return true
		}
	}
	return false
}

// resumeSchedule is a turn that continues an interrupted plan: the turn's
// own messages (the user's "continue") belong to the resumed agent.
func (e *Engine) resumeSchedule(ctx context.Context, t *turn, b *begun, sink *turnSink) agent.Outcome {
	return e.schedule(ctx, t, b, sink, agent.Outcome{}, true)
}

// schedule runs the plan: for each pending item an executor then an
// evaluator, then the closing free phase. Code decides every step; the
// models only carry them out. On return, b.writer and sink.msgID name the
// message still open (the last step's), which runTurn finalises; every
// earlier step's message is finalised here.
func (e *Engine) schedule(ctx context.Context, t *turn, b *begun, sink *turnSink, total agent.Outcome, resume bool) agent.Outcome {
	sid := t.sessionID
	unblock := e.BlockCompaction(sid, "todo items are running; global compaction waits for the free phase")
	defer unblock()
	lim := e.schedLimits()
	first := resume
	lastUsage := total.Usage
	for {
		if ctx.Err() != nil {
			total.Status = agent.StatusCancelled
			return total
		}
		var step scheduler.Step
		plan, err := e.updatePlan(ctx, sid, t.id, sink.tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
			step = p.Advance()
			return p, nil
		})
		if err != nil {
			total.Status, total.Err = agent.StatusError, err
			return total
		}
		if step.Kind == scheduler.StepNone {
			if first {
				// Nothing was left to resume: say so in the open message.
				sink.Notice("The todo plan has no item left to run.")
			}
			total.Status, total.Usage = agent.StatusDone, lastUsage
			return total
		}
		role, final := step.Role, step.Kind == scheduler.StepFinal
		if final {
			role = scheduler.RoleFree
		}
		tag := step.Tag()
		var prompt string
		var start int
		var history []llm.Message
		if first {
			first = false
			history = b.history
			if step.Resume && validStart(history, plan.AgentStart, plan.AgentPrompt) {
				start, prompt = plan.AgentStart, plan.AgentPrompt
			} else {
				step.Resume = false
				prompt = stepPrompt(plan, step, lim)
				pm := llm.Message{Role: llm.RoleUser, Content: prompt}
				if err := b.writer.CommitLLM(ctx, pm); err != nil {
					total.Status, total.Err = agent.StatusError, err
					return total
				}
				start, history = len(history), append(append([]llm.Message(nil), history...), pm)
			}
			sink.tag = tag
		} else {
			e.finishStep(b.writer, store.StatusDone, lastUsage)
			prompt = stepPrompt(plan, step, lim)
			w, msgID, track, err := e.openStep(ctx, t, tag, prompt)
			if err != nil {
				total.Status, total.Err = agent.StatusError, err
				return total
			}
			e.mu.Lock()
			t.writer = w
			e.mu.Unlock()
			b.writer, sink.w, sink.msgID, sink.tag = w, w, msgID, tag
			start, history = len(track)-1, track
		}
		if !final {
			if _, err := e.updatePlan(ctx, sid, t.id, tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
				p.BeginAgent(step, start, prompt)
				return p, nil
			}); err != nil {
				total.Status, total.Err = agent.StatusError, err
				return total
			}
		}
		title := ""
		if !final {
			title = plan.Items[step.Index].Title
		}
		out, ended, act := e.runStep(ctx, t, sink, role, tag, final, history, lim)
		total.Usage.Add(out.Usage)
		total.Rounds += out.Rounds
		lastUsage = out.Usage
		total.Final = out.Final
		if out.Status == agent.StatusCancelled || out.Status == agent.StatusError {
			e.interruptPlan(ctx, sid, t.id, tag)
			total.Status, total.Err, total.Usage = out.Status, out.Err, lastUsage
			return total
		}
		if final {
			_, err := e.updatePlan(ctx, sid, t.id, tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
				p.FinalDone()
				return p, nil
			})
			total.Status, total.Usage = agent.StatusDone, lastUsage
			if err != nil {
				total.Status, total.Err = agent.StatusError, err
			}
			return total
		}
		if err := e.finishAgent(ctx, t, step, title, start, prompt, out.Final, ended, act, lim); err != nil {
			total.Status, total.Err, total.Usage = agent.StatusError, err, lastUsage
			return total
		}
	}
}

func stepPrompt(p *scheduler.Plan, s scheduler.Step, lim scheduler.Limits) string {
	switch {
	case s.Kind == scheduler.StepFinal:
		return scheduler.FinalPrompt(p)
	case s.Resume:
		return scheduler.ResumePrompt(p, s)
	case s.Role == scheduler.RoleEvaluator:
		return scheduler.EvaluatorPrompt(p, s.Index, lim)
	default:
		return scheduler.ExecutorPrompt(p, s.Index)
	}
}

// validStart checks that an interrupted agent's first message is still
// where the plan says: a track rewritten meanwhile (compaction) makes the
// agent start afresh instead of continuing someone else's messages.
func validStart(track []llm.Message, start int, prompt string) bool {
	return start >= 0 && start < len(track) && track[start].Role == llm.RoleUser && track[start].Content == prompt
}

// openStep commits a step's first message (the item prompt, tagged) and
// its pending assistant message, and returns the writer and the track.
func (e *Engine) openStep(ctx context.Context, t *turn, tag, prompt string) (*store.StreamWriter, string, []llm.Message, error) {
	sid := t.sessionID
	pm := llm.Message{Role: llm.RoleUser, Content: prompt}
	ids, w, err := e.Store.BeginTurn(ctx, sid, prompt, store.TurnOptions{SubAgentTag: tag, LLM: []llm.Message{pm}})
	if err != nil {
		return nil, "", nil, err
	}
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: KindMessage, SubAgentTag: tag, MessageID: ids.UserMessageID, MessageSeq: ids.UserSeq, Text: prompt})
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: KindTurnStarted, SubAgentTag: tag, MessageID: ids.AssistantMessageID, MessageSeq: ids.AssistantSeq})
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return nil, "", nil, err
	}
	if fixed, changed := compact.Sanitize(track); changed {
		track = fixed
	}
	return w, ids.AssistantMessageID, track, nil
}

func (e *Engine) finishStep(w *store.StreamWriter, st store.MessageStatus, usage llm.Usage) {
	fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Finalize(fctx, st, &usage); err != nil {
		e.log.Warn("finalising a scheduler step", zap.Error(err))
	}
}

// runStep runs one agent within its limits. ended says which limit
// stopped it ("" when it replied without tool calls).
func (e *Engine) runStep(ctx context.Context, t *turn, sink *turnSink, role scheduler.Role, tag string, final bool, history []llm.Message, lim scheduler.Limits) (agent.Outcome, string, *scheduler.Activity) {
	profile := e.profile()
	client, err := e.client(profile)
	if err != nil {
		return agent.Outcome{Status: agent.StatusError, Err: err}, "", nil
	}
	ts, blocked := e.roleTools(ctx, t, role, tag, final)
	run := &agent.Run{
		Client: client, Tools: ts, Blocked: blocked, Env: e.toolEnv(ctx, t), System: e.systemPrompt(),
		Translate: e.tr, MaxRounds: lim.MaxAgentTurns, MaxRoundsSetting: "govibe.scheduler.maxAgentTurns", ToolCalling: firstNonEmpty(profile.ToolCalling, e.Settings().String("toolCalling")),
		SessionID: t.sessionID, MaxTokens: profile.MaxOutputTokens, Prepare: e.prepareHook(t, tag),
	}
	if final {
		run.MaxRounds = e.Settings().Int("maxInteractions")
	}
	actx, cancel := context.WithTimeout(ctx, time.Duration(lim.MaxAgentMinutes*float64(time.Minute)))
	defer cancel()
	ss := &stepSink{Sink: e.meterSink(sink), e: e, sid: t.sessionID, turnID: t.id, tag: tag, act: &scheduler.Activity{}, counts: !final}
	out := run.Execute(actx, history, ss)
	out.Messages = nil
	ended := ""
	switch {
	case out.Status == agent.StatusCancelled && ctx.Err() == nil:
		ended = fmt.Sprintf("the wall-time limit of %g minutes was reached (govibe.scheduler.maxAgentMinutes)", lim.MaxAgentMinutes)
		sink.Notice("Stopped: " + ended + ".")
		out.Status = agent.StatusMaxTurns
	case out.Status == agent.StatusMaxTurns:
		ended = fmt.Sprintf("the limit of %d tool rounds was reached (govibe.scheduler.maxAgentTurns)", run.MaxRounds)
	}
	return out, ended, ss.act
}
