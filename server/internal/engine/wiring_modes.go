package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A Phases turn's runs and a reconcile turn are package moderun's
// (ContinuePhases, RunReconcile); these plain functions hand them the
// turn's state and the engine's collaborators.

// phasesTurn is turn t's Phases machine after its first run.
func phasesTurn(e *Engine, t *turn, b *begun, sink *turnSink) moderun.PhasesTurn {
	return moderun.PhasesTurn{
		Progress: func(ctx context.Context) modes.Progress { return e.Modes.Progress(ctx, t.sessionID) },
		Commit:   func(ctx context.Context, m llm.Message) error { return b.writer.CommitLLM(ctx, m) },
		NewRun:   func(ctx context.Context) (*agent.Run, error) { return e.newRun(ctx, t, sink) },
		Sink:     &usageSink{turnSink: sink}, History: b.history, Merge: mergeOutcomes, Notice: sink.Notice, Tr: e.Tr}
}

// reconcileTurn is turn t as the session's reconcile loop runs in it.
func reconcileTurn(e *Engine, t *turn, sink *turnSink) moderun.ReconcileTurn {
	return moderun.ReconcileTurn{
		Loop: func(ctx context.Context, a moderun.Agents) (modes.RunState, error) {
			return e.Modes.RunLoop(ctx, t.sessionID, t.id, a)
		},
		Notice: sink.Notice, Append: sink.Append, Tr: e.Tr}
}

// reconcileAgents is the turn side of a reconcile loop: each scoped agent
// runs in a hidden child session, so the loop's agents never fill the
// session's model track; their progress reaches the parent's UI under
// their tag (specifier:N, coder:N). Used from the turn's goroutine only.
func reconcileAgents(e *Engine, t *turn, sink *turnSink) moderun.Agents {
	return moderun.AgentFuncs{NoticeFunc: sink.Notice,
		SnapshotFunc: func(ctx context.Context, message string) error {
			_, err := e.Rollback.Take(ctx, snapshot.Meta{SessionID: t.sessionID, Turn: t.number, TurnID: t.id,
				Message: message, Reason: moderun.ReasonReconcileLoop})
			return err
		},
		RunFunc: func(ctx context.Context, step modes.Step, tag, prompt string) error {
			c, err := reconcileChild(ctx, e, t, step, tag, prompt)
			if err != nil {
				return err
			}
			return moderun.RunChild(ctx, c, prompt)
		}}
}

// reconcileChild sets up one scoped agent of step in a hidden child
// session of t's, with the step's tools.
func reconcileChild(ctx context.Context, e *Engine, t *turn, step modes.Step, tag, prompt string) (moderun.ChildAgent, error) {
	sid := t.sessionID
	child, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: sid, Kind: store.KindSubagent, Hidden: true,
		Title: "reconcile " + tag, Model: e.Profiles.Active().Model, ParentMessageID: e.openMessageID(sid)})
	if err != nil {
		return moderun.ChildAgent{}, err
	}
	ids, w, err := e.Store.BeginTurn(ctx, child.ID, prompt, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return moderun.ChildAgent{}, err
	}
	sink := &turnSink{e: e, t: &turn{id: t.id, sessionID: sid}, w: w, msgID: ids.AssistantMessageID, tag: tag}
	profile := e.Profiles.Session(ctx, sid)
	client, err := e.client(profile)
	if err != nil {
		return moderun.ChildAgent{}, err
	}
	ts, _ := moderun.StepTools(step, e.hooks.WithHooks(tools.Builtin()), e.opts.Roots)
	// The step's decision, knowing whether an editor is attached.
	sit := toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Reconcile, Phase: string(step), Headless: e.opts.Host == nil}
	d := toolpolicy.Decide(sit, ts)
	env := e.toolEnv(ctx, t)
	env.SessionID = child.ID
	run := &agent.Run{Client: client, Tools: ts, Blocked: d.Blocked, Deferred: d.Deferred, Env: env, System: e.TurnTools.Prompt(sid, sit, d), Translate: e.Tr,
		MaxRounds: e.schedLimits().MaxAgentTurns, MaxRoundsSetting: "govibe.scheduler.maxAgentTurns",
		ToolCalling: e.Profiles.ToolCalling(profile), OnTextFallback: e.Profiles.OnTextFallback(profile), SessionID: child.ID, MaxTokens: profile.MaxOutputTokens}
	return moderun.ChildAgent{Run: run, Sink: sink, Writer: w}, nil
}
