// Package eventview builds the chat events' payloads (package
// protocol/eventdata) from the domain's records: a hook's run, the context
// use, a todo plan, a reviewer's card, a mode's panel, a turn's snapshots.
// The engine publishes what it builds and the edge sends it as it is; the
// edge also calls these for the methods that return the same records
// (session/load, mode/get, confirmations), so an event and a reload show
// the same thing.
package eventview

import (
	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// Hook is a lifecycle hook's run as the chat shows it.
func Hook(r hooks.Run) eventdata.HookRun {
	return eventdata.HookRun{Event: string(r.Event), Command: r.Command, Source: r.Source, ExitCode: r.ExitCode,
		DurationMs: r.DurationMs, Result: r.Result, Note: r.Note}
}

// Context is the header's context bar.
func Context(c usage.Context) eventdata.ContextUse {
	return eventdata.ContextUse{UsedTokens: c.UsedTokens, WindowTokens: c.WindowTokens, SessionCost: c.Session.Cost,
		SessionUsage: Usage(c.Session.Usage), Profile: c.Profile}
}

// Usage is a request's or a message's usage: tokens, the cache figure's
// reported part (unknown when 0), whether prices exist, and a request's
// miss cause.
func Usage(u llm.Usage) eventdata.Usage {
	w := eventdata.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, CachedTokens: u.CachedTokens, Cost: u.Cost,
		CacheReportedTokens: u.CacheReportedTokens, Priced: u.Priced}
	if u.Miss.Cause != "" {
		w.CacheMiss = &eventdata.CacheMiss{Cause: u.Miss.Cause, Detail: u.Miss.Detail, Message: u.Miss.Message}
	}
	return w
}

// Todo is the session's todo plan for its panel.
func Todo(p scheduler.Plan) eventdata.TodoState {
	out := eventdata.TodoState{Goal: p.Goal, Current: p.Current, Phase: string(p.Phase), Items: make([]eventdata.TodoItem, 0, len(p.Items))}
	for _, it := range p.Items {
		out.Items = append(out.Items, eventdata.TodoItem{Title: it.Title, Description: it.Description, Acceptance: it.Acceptance,
			Status: string(it.Status), Agent: it.Agent, Turns: it.Turns, Attempts: it.Attempts, Summary: it.Summary})
	}
	return out
}

// Review is a reviewer's card.
func Review(r reviewers.Card) eventdata.ReviewCard {
	out := eventdata.ReviewCard{Kind: r.Kind, Approved: r.Approved, Suggestion: r.Suggestion, DurationMs: r.DurationMs, Unavailable: r.Unavailable}
	for _, p := range r.Problems {
		out.Problems = append(out.Problems, eventdata.ReviewProblem{Severity: p.Severity, Message: p.Message, Location: p.Location})
	}
	return out
}

// Snapshots lists a turn's before-snapshots, one per root.
func Snapshots(refs []rollback.TurnSnapshot) eventdata.Snapshots {
	out := make(eventdata.Snapshots, 0, len(refs))
	for _, r := range refs {
		out = append(out, eventdata.TurnSnapshot{Root: r.Root, ID: r.ID})
	}
	return out
}

// Mode is a working mode's panel after a switch, a Phases step or a
// reconcile run's move.
func Mode(p moderun.Panel) eventdata.ModeState {
	switch {
	case p.Phases != nil:
		return Phases(*p.Phases)
	case p.Reconcile != nil:
		r := Reconcile(*p.Reconcile)
		return eventdata.ModeState{Mode: string(modes.Reconcile), State: r.Phase, Reconcile: &r}
	default:
		// The session switched modes: the panel starts from an empty record.
		return eventdata.ModeState{Mode: string(p.Switched)}
	}
}

// Phases is Phases mode's record: the codeCLI state, findings, plan and
// progress log.
func Phases(pl modes.Progress) eventdata.ModeState {
	return eventdata.ModeState{Mode: string(modes.Phases), State: string(pl.State), Findings: pl.Findings, Plan: pl.Plan,
		Step: pl.Step, Log: pl.Log, Reason: pl.Reason}
}

// Reconcile is a reconcile run for its panel.
func Reconcile(v moderun.ReconcileView) eventdata.ReconcileState {
	m := v.Run.Manifest
	b, _ := modes.EncodeManifest(m)
	diffs := append([]int{}, v.Run.Diffs...)
	return eventdata.ReconcileState{Name: m.Metadata.Name, Intent: m.Spec.Intent, Approved: m.Metadata.Approved, Manifest: string(b),
		Phase: m.Status.Phase, CurrentLoop: m.Status.CurrentLoop, LastError: m.Status.LastError, Step: string(v.Run.Step),
		Agent: v.Agent, Running: v.Running, Baseline: v.Run.Baseline, Diffs: diffs, MaxLoops: v.MaxLoops, SpecRetries: v.Run.SpecRetries}
}
