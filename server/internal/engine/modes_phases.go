package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/tools"
)

// Phases mode (codeCLI) on the engine's one agent loop: each run offers
// the current state's tools, and its report tools both record progress
// (session state, a mode event for the panel) and stop the run, so the
// next run is assembled with the next state's whitelist.

// reportTool is one of report_findings, report_plan, report_blocked and
// report_done.
type reportTool struct {
	e      *Engine
	sid    string
	name   string
	desc   string
	schema string
}

func (r *reportTool) Name() string            { return r.name }
func (r *reportTool) Description() string     { return r.desc }
func (r *reportTool) Schema() json.RawMessage { return json.RawMessage(r.schema) }
func (r *reportTool) ReadOnly() bool          { return false }

func (r *reportTool) Run(ctx context.Context, _ *tools.Env, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Text  string   `json:"text"`
		Steps []string `json:"steps"`
		Step  string   `json:"step"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Fail("invalid arguments: " + err.Error()), nil
	}
	p := r.e.PhaseProgress(ctx, r.sid)
	if err := p.Apply(modes.Report{Tool: r.name, Text: a.Text, Steps: a.Steps, StepKey: a.Step}); err != nil {
		return tools.Fail(err.Error()), nil
	}
	if err := sessionstate.Set(ctx, r.e.Store, r.sid, sessionstate.PhaseProgress, p); err != nil {
		return tools.Result{}, err
	}
	r.e.Bus.Publish(Event{SessionID: r.sid, Kind: KindMode, Payload: p})
	return tools.Result{OK: true, Output: fmt.Sprintf("Recorded. The phase is now %s.", p.State)}, nil
}

const textSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`

func (e *Engine) reportTools(sid string) []tools.Tool {
	mk := func(name, desc, schema string) tools.Tool {
		return &reportTool{e: e, sid: sid, name: name, desc: desc, schema: schema}
	}
	return []tools.Tool{
		mk(modes.ToolReportFindings, "End the EXPLORING phase: report what you found (files, causes, constraints) in text.", textSchema),
		mk(modes.ToolReportPlan, "End the PLANNING phase: report the ordered steps of the patch.",
			`{"type":"object","properties":{"steps":{"type":"array","items":{"type":"string"},"minItems":1}},"required":["steps"],"additionalProperties":false}`),
		mk(modes.ToolReportBlocked, "Report that the current step cannot go on, and why (text). Three reports on one step fail the run.",
			`{"type":"object","properties":{"text":{"type":"string"},"step":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
		mk(modes.ToolReportDone, "PATCHING: the patch is written, go on to verify. VERIFYING: the checks pass; text says which.", textSchema),
	}
}

// modeTools are the tools a mode adds to a run (the report tools in
// Phases mode; nothing otherwise, so other modes' tool lists stay as they were).
func (e *Engine) modeTools(ctx context.Context, sid string) []tools.Tool {
	if e.Mode(ctx, sid) != modes.Phases {
		return nil
	}
	return e.reportTools(sid)
}

// modeStopAfter adds the phase's exit tools to the run's stop list.
func (e *Engine) modeStopAfter(ctx context.Context, sid string, stop map[string]bool) map[string]bool {
	if e.Mode(ctx, sid) != modes.Phases {
		return stop
	}
	out := map[string]bool{}
	for k, v := range stop {
		out[k] = v
	}
	for _, n := range []string{modes.ToolReportFindings, modes.ToolReportPlan, modes.ToolReportBlocked, modes.ToolReportDone} {
		out[n] = true
	}
	return out
}

// continuePhases drives the machine after the turn's first run: a report
// stops the run and the next starts with the next state's tools; a plain
// reply does not end the phase, and the model is told so, at most the
// phase's MaxNudges times in a row.
func (e *Engine) continuePhases(ctx context.Context, t *turn, b *begun, sink *turnSink, out agent.Outcome) agent.Outcome {
	sid := t.sessionID
	nudges := 0
	for out.Status == agent.StatusDone {
		p := e.PhaseProgress(ctx, sid)
		if p.Ended() {
			return out
		}
		ph := modes.PhaseOf(modes.Phases, string(p.State))
		var extra []llm.Message
		if out.Stopped == "" {
			if nudges >= ph.MaxNudges {
				sink.Notice(e.tr("The %s phase ended %d replies in a row without %s; send a message to go on.",
					ph.Name, nudges+1, strings.Join(ph.Exit, " or ")))
				return out
			}
			nudges++
			m := llm.Message{Role: llm.RoleUser, Content: modes.Nudge(ph)}
			if err := b.writer.CommitLLM(ctx, m); err != nil {
				out.Status, out.Err = agent.StatusError, err
				return out
			}
			extra = append(extra, m)
		} else {
			nudges = 0
		}
		run, err := e.newRun(ctx, t, sink)
		if err != nil {
			out.Status, out.Err = agent.StatusError, err
			return out
		}
		history := append(append(append([]llm.Message(nil), b.history...), out.Messages...), extra...)
		more := run.Execute(ctx, history, e.meterSink(sink))
		more.Messages = append(extra, more.Messages...)
		out = mergeOutcomes(out, more)
	}
	return out
}

// repeatGuard refuses, in Phases mode, a call identical (name and
// arguments) to one already made in the same run: the codeCLI rule
// against a model looping on the same step.
type repeatGuard struct {
	tools.Tool
	seen *sync.Map
}

func (g repeatGuard) Run(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	key := g.Name() + "\x00" + string(args)
	if _, dup := g.seen.LoadOrStore(key, true); dup {
		return tools.Fail("This exact call was already made in this phase; its result is above. Do something different, or report."), nil
	}
	return g.Tool.Run(ctx, env, args)
}

// guardRepeats wraps every tool of a Phases-mode run with one shared
// repeatGuard.
func (e *Engine) guardRepeats(ctx context.Context, sid string, ts []tools.Tool) []tools.Tool {
	if e.Mode(ctx, sid) != modes.Phases {
		return ts
	}
	seen := &sync.Map{}
	for i, t := range ts {
		ts[i] = repeatGuard{Tool: t, seen: seen}
	}
	return ts
}
