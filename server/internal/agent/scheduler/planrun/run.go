package planrun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Turn is the running turn a plan runs in, as the runner drives it. Its
// methods are called from the turn's goroutine only.
type Turn interface {
	SessionID() string
	ID() string
	// Tag is the agent tag of the turn's open message; SetTag re-tags it.
	Tag() string
	SetTag(tag string)
	// Notice adds a note to the open message; Tr localises its text (the
	// English format string is the catalogue key).
	Notice(text string)
	Tr(msg string, args ...any) string
	// History is the model track the turn's first step continues.
	History() []llm.Message
	// CommitPrompt appends m to the open message's model messages.
	CommitPrompt(ctx context.Context, m llm.Message) error
	// FinishStep finalises the open message as done, with usage.
	FinishStep(usage llm.Usage)
	// OpenStep commits a step's prompt (tagged) and its pending assistant
	// message, which becomes the open one, and returns the model track.
	// The step says whose prompt it is (an item's agent, a resume, the
	// closing prompt), so the transcript marks it as the engine's.
	OpenStep(ctx context.Context, step scheduler.Step, prompt string) ([]llm.Message, error)
	// RunAgent runs one agent over history with sink wrapped by wrap, and
	// returns its outcome and the tool-round limit it ran under.
	RunAgent(ctx context.Context, a Agent, history []llm.Message, wrap func(agent.Sink) agent.Sink) (agent.Outcome, int)
}

// Agent is one step's agent: its role and tag; Final is the closing free
// phase; MaxRounds is the role's tool-round limit (0: the turn's own).
type Agent struct {
	Role      scheduler.Role
	Tag       string
	Final     bool
	MaxRounds int
}

// Run runs the plan: for each pending item an executor then an evaluator,
// then the closing free phase. Code decides every step; the models only
// carry them out. total is what the turn's free run did so far; resume
// says the turn continues an interrupted plan (its own messages belong to
// the resumed agent). On return the turn's open message is the last
// step's, which the turn finalises; every earlier step's is finalised here.
func (r *Runner) Run(ctx context.Context, t Turn, total agent.Outcome, resume bool) agent.Outcome {
	sid := t.SessionID()
	unblock := r.host.BlockCompaction(sid, "todo items are running; global compaction waits for the free phase")
	defer unblock()
	lim := r.host.Limits()
	first := resume
	lastUsage := total.Usage
	for {
		if ctx.Err() != nil {
			total.Status = agent.StatusCancelled
			return total
		}
		var step scheduler.Step
		plan, err := r.Update(ctx, sid, t.ID(), t.Tag(), func(p *scheduler.Plan) (*scheduler.Plan, error) {
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
				t.Notice(t.Tr("The todo plan has no item left to run."))
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
			history = t.History()
			if step.Resume && validStart(history, plan.AgentStart, plan.AgentPrompt) {
				start, prompt = plan.AgentStart, plan.AgentPrompt
			} else {
				step.Resume = false
				prompt = stepPrompt(plan, step, lim)
				pm := llm.Message{Role: llm.RoleUser, Content: prompt}
				if err := t.CommitPrompt(ctx, pm); err != nil {
					total.Status, total.Err = agent.StatusError, err
					return total
				}
				start, history = len(history), append(append([]llm.Message(nil), history...), pm)
			}
			t.SetTag(tag)
		} else {
			t.FinishStep(lastUsage)
			prompt = stepPrompt(plan, step, lim)
			track, err := t.OpenStep(ctx, step, prompt)
			if err != nil {
				total.Status, total.Err = agent.StatusError, err
				return total
			}
			start, history = len(track)-1, track
		}
		if !final {
			if _, err := r.Update(ctx, sid, t.ID(), tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
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
		out, ended, act := r.runStep(ctx, t, role, tag, final, history, lim)
		total.Usage.Add(out.Usage)
		total.Rounds += out.Rounds
		lastUsage = out.Usage
		total.Final = out.Final
		if out.Status == agent.StatusCancelled || out.Status == agent.StatusError {
			r.interrupt(ctx, sid, t.ID(), tag)
			total.Status, total.Err, total.Usage = out.Status, out.Err, lastUsage
			return total
		}
		if final {
			_, err := r.Update(ctx, sid, t.ID(), tag, func(p *scheduler.Plan) (*scheduler.Plan, error) {
				p.FinalDone()
				return p, nil
			})
			total.Status, total.Usage = agent.StatusDone, lastUsage
			if err != nil {
				total.Status, total.Err = agent.StatusError, err
			}
			return total
		}
		if err := r.finishAgent(ctx, sid, t.ID(), step, title, start, prompt, out.Final, ended, act, lim); err != nil {
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

// runStep runs one agent within its limits. ended says which limit
// stopped it ("" when it replied without tool calls).
func (r *Runner) runStep(ctx context.Context, t Turn, role scheduler.Role, tag string, final bool, history []llm.Message, lim scheduler.Limits) (agent.Outcome, string, *scheduler.Activity) {
	a := Agent{Role: role, Tag: tag, Final: final}
	if !final {
		a.MaxRounds = lim.MaxAgentTurns
	}
	actx, cancel := context.WithTimeout(ctx, time.Duration(lim.MaxAgentMinutes*float64(time.Minute)))
	defer cancel()
	act := scheduler.NewActivity(func(n string) bool { return tools.BuiltinTraits(n).Has(tools.WritesWorkspace) })
	out, maxRounds := t.RunAgent(actx, a, history, func(s agent.Sink) agent.Sink {
		return &stepSink{Sink: s, r: r, sid: t.SessionID(), turnID: t.ID(), tag: tag, act: act, counts: !final}
	})
	out.Messages = nil
	ended := ""
	switch {
	case out.Status == agent.StatusCancelled && ctx.Err() == nil:
		ended = fmt.Sprintf("the wall-time limit of %g minutes was reached (govibe.scheduler.maxAgentMinutes)", lim.MaxAgentMinutes)
		t.Notice(t.Tr("Stopped: the wall-time limit of %g minutes was reached (govibe.scheduler.maxAgentMinutes).", lim.MaxAgentMinutes))
		out.Status = agent.StatusMaxTurns
	case out.Status == agent.StatusMaxTurns:
		ended = fmt.Sprintf("the limit of %d tool rounds was reached (govibe.scheduler.maxAgentTurns)", maxRounds)
	}
	return out, ended, act
}

// Created reports whether the last round's create_todo_list calls
// succeeded, from their tool results: a free run that stopped after one
// hands over to Run only then.
func Created(msgs []llm.Message) bool {
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
