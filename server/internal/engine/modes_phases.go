package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/modes"
)

// Phases mode (codeCLI) on the engine's one agent loop: each run offers
// the current state's tools, and its report tools both record progress
// (session state, a mode event for the panel) and stop the run, so the
// next run is assembled with the next state's whitelist.

// continuePhases drives the machine after the turn's first run: a report
// stops the run and the next starts with the next state's tools; a plain
// reply does not end the phase, and the model is told so, at most the
// phase's MaxNudges times in a row.
func (e *Engine) continuePhases(ctx context.Context, t *turn, b *begun, sink *turnSink, out agent.Outcome) agent.Outcome {
	sid := t.sessionID
	nudges := 0
	for out.Status == agent.StatusDone {
		p := e.Modes.Progress(ctx, sid)
		if p.Ended() {
			return out
		}
		ph := modes.PhaseOf(modes.Phases, string(p.State))
		var extra []llm.Message
		if out.Stopped == "" {
			if nudges >= ph.MaxNudges {
				sink.Notice(e.Tr("The %s phase ended %d replies in a row without %s; send a message to go on.",
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
		more := run.Execute(ctx, history, &usageSink{turnSink: sink})
		more.Messages = append(extra, more.Messages...)
		out = mergeOutcomes(out, more)
	}
	return out
}
