package moderun

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// PhasesTurn is what a Phases turn needs from the engine after its first
// run: the session's progress, the turn's writer and history, a fresh run
// (assembled with the current state's tools) and its sink.
type PhasesTurn struct {
	Progress func(ctx context.Context) modes.Progress
	// Commit records a message in the turn's model track.
	Commit func(ctx context.Context, m llm.Message) error
	NewRun func(ctx context.Context) (*agent.Run, error)
	Sink   agent.Sink
	// History is the turn's history before its first run.
	History []llm.Message
	// Merge adds a later run's outcome to the turn's.
	Merge  func(a, b agent.Outcome) agent.Outcome
	Notice func(text string)
	Tr     func(msg string, args ...any) string
}

// ContinuePhases drives the machine after the turn's first run: a report
// stops the run and the next starts with the next state's tools; a plain
// reply does not end the phase, and the model is told so, at most the
// phase's MaxNudges times in a row.
func ContinuePhases(ctx context.Context, p PhasesTurn, out agent.Outcome) agent.Outcome {
	nudges := 0
	for out.Status == agent.StatusDone {
		pr := p.Progress(ctx)
		if pr.Ended() {
			return out
		}
		ph := modes.PhaseOf(modes.Phases, string(pr.State))
		var extra []llm.Message
		if out.Stopped == "" {
			if nudges >= ph.MaxNudges {
				p.Notice(p.Tr("The %s phase ended %d replies in a row without %s; send a message to go on.",
					ph.Name, nudges+1, strings.Join(ph.Exit, " or ")))
				return out
			}
			nudges++
			m := llm.Message{Role: llm.RoleUser, Content: modes.Nudge(ph)}
			if err := p.Commit(ctx, m); err != nil {
				out.Status, out.Err = agent.StatusError, err
				return out
			}
			extra = append(extra, m)
		} else {
			nudges = 0
		}
		run, err := p.NewRun(ctx)
		if err != nil {
			out.Status, out.Err = agent.StatusError, err
			return out
		}
		history := append(append(append([]llm.Message(nil), p.History...), out.Messages...), extra...)
		more := run.Execute(ctx, history, p.Sink)
		more.Messages = append(extra, more.Messages...)
		out = p.Merge(out, more)
	}
	return out
}
