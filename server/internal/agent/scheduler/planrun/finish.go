package planrun

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// finishAgent moves the plan past a finished executor or evaluator, then
// replaces the agent's messages in the model track with one summary
// (scoped compaction, no model call). The plan is persisted first: a crash
// in between leaves a longer track, never a repeated agent.
func (r *Runner) finishAgent(ctx context.Context, sid, turnID string, step scheduler.Step, title string, start int, prompt, final, ended string, act *scheduler.Activity, lim scheduler.Limits) error {
	tag := step.Tag()
	var summary llm.Message
	_, err := r.Update(ctx, sid, turnID, tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if step.Role == scheduler.RoleExecutor {
			summary = scheduler.ExecutorSummary(p, step.Index, final, act, ended)
			p.ExecutorFinished()
			return p, nil
		}
		v := p.EvaluatorFinished(final, lim)
		summary = scheduler.EvaluatorSummary(p, step.Index, title, v, ended)
		return p, nil
	})
	if err != nil {
		return err
	}
	if err := r.scopedCompact(ctx, sid, start, prompt, summary); err != nil {
		r.log.Warn("scoped compaction", zap.String("session", sid), zap.String("agent", tag), zap.Error(err))
	}
	return nil
}

// scopedCompact replaces the track from the agent's first message to the
// end with summary. The session runs this turn only (and compaction is
// blocked meanwhile), so everything from start on is the agent's.
func (r *Runner) scopedCompact(ctx context.Context, sid string, start int, prompt string, summary llm.Message) error {
	track, err := r.store.LLMMessages(ctx, sid)
	if err != nil {
		return err
	}
	if !validStart(track, start, prompt) {
		return errors.New("the agent's first message is no longer where it began; its messages were left as they are")
	}
	return r.store.ReplaceLLMMessages(ctx, sid, start, len(track), []llm.Message{summary})
}

// interrupt marks the running item interrupted (Stop, error) so the user
// can resume it.
func (r *Runner) interrupt(ctx context.Context, sid, turnID, tag string) {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := r.Update(fctx, sid, turnID, tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
		if p != nil {
			p.Interrupt()
		}
		return p, nil
	}); err != nil {
		r.log.Warn("marking the todo item interrupted", zap.String("session", sid), zap.Error(err))
	}
}

// stepSink is an agent's sink within the plan: it records what the agent
// did from its tool calls and counts its turns on the plan. The loop
// serialises calls into it; Activity is itself concurrency-safe.
type stepSink struct {
	agent.Sink
	r      *Runner
	sid    string
	turnID string
	tag    string
	act    *scheduler.Activity
	counts bool
}

func (s *stepSink) Append(m llm.Message) {
	s.Sink.Append(m)
	if m.Role == llm.RoleAssistant && s.counts {
		if _, err := s.r.Update(context.Background(), s.sid, s.turnID, s.tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
			if p != nil {
				p.CountTurn()
			}
			return p, nil
		}); err != nil {
			s.r.log.Warn("counting an agent turn", zap.String("session", s.sid), zap.Error(err))
		}
	}
}

func (s *stepSink) ToolFinished(c llm.ToolCall, res tools.Result, d time.Duration, msg llm.Message) {
	s.act.Record(c.Name, c.Arguments, res.OK, activityMeta(res.Meta))
	s.Sink.ToolFinished(c, res, d, msg)
}

// activityMeta is the part of a result's metadata the step's activity
// summary reads (scheduler.Activity.Record). An applied edit carries the
// file's whole text before and after, 9.8 MB for one line changed in a
// 100,000-line file, of which the summary reads the path: encoding all of
// it here and decoding it there was a second full encoding of the edit
// per plan step, beside the one the turn's own sink stores.
func activityMeta(meta any) []byte {
	switch m := meta.(type) {
	case nil:
		return nil
	case tools.EditMeta:
		b, _ := json.Marshal(struct {
			Path string `json:"path"`
		}{m.Path})
		return b
	}
	b, _ := json.Marshal(meta)
	return b
}
