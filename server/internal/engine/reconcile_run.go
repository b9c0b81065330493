package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/modes/moderun"
	"github.com/govibe/govibe/server/internal/snapshot"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/toolpolicy"
	"github.com/govibe/govibe/server/internal/tools"
)

// reconcileAgents is the turn side of a reconcile loop (moderun.Agents):
// each scoped agent runs in a hidden child session, so the loop's agents
// never fill the session's model track; their progress reaches the
// parent's UI under their tag (specifier:N, coder:N). Used from the
// turn's goroutine only.
type reconcileAgents struct {
	e    *Engine
	t    *turn
	sink *turnSink
}

// ReasonReconcileLoop is the snapshot taken after each reconcile loop.
const ReasonReconcileLoop = "reconcile loop"

func (r reconcileAgents) Notice(text string) { r.sink.Notice(text) }

// Snapshot records the workspace after a loop.
func (r reconcileAgents) Snapshot(ctx context.Context, message string) error {
	_, err := r.e.Rollback.Take(ctx, snapshot.Meta{SessionID: r.t.sessionID, Turn: r.t.number, TurnID: r.t.id,
		Message: message, Reason: ReasonReconcileLoop})
	return err
}

// Run runs one scoped agent to its end with the step's tools.
func (r reconcileAgents) Run(ctx context.Context, step modes.Step, tag, prompt string) error {
	e, sid := r.e, r.t.sessionID
	child, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: sid, Kind: store.KindSubagent, Hidden: true,
		Title: "reconcile " + tag, Model: e.Profiles.Active().Model, ParentMessageID: e.openMessageID(sid)})
	if err != nil {
		return err
	}
	ids, w, err := e.Store.BeginTurn(ctx, child.ID, prompt, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return err
	}
	sink := &turnSink{e: e, t: &turn{id: r.t.id, sessionID: sid}, w: w, msgID: ids.AssistantMessageID, tag: tag}
	profile := e.Profiles.Session(ctx, sid)
	client, err := e.client(profile)
	if err != nil {
		return err
	}
	ts, _ := moderun.StepTools(step, e.hooks.WithHooks(tools.Builtin()), e.opts.Roots)
	// The step's decision, knowing whether an editor is attached.
	sit := toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Reconcile, Phase: string(step), Headless: e.opts.Host == nil}
	d := toolpolicy.Decide(sit, ts)
	env := e.toolEnv(ctx, r.t)
	env.SessionID = child.ID
	run := &agent.Run{Client: client, Tools: ts, Blocked: d.Blocked, Deferred: d.Deferred, Env: env, System: e.promptFor(sid, sit, d), Translate: e.Tr,
		MaxRounds: e.schedLimits().MaxAgentTurns, MaxRoundsSetting: "govibe.scheduler.maxAgentTurns",
		ToolCalling: e.Profiles.ToolCalling(profile), OnTextFallback: e.Profiles.OnTextFallback(profile), SessionID: child.ID, MaxTokens: profile.MaxOutputTokens}
	user := llmUser(prompt)
	if err := w.CommitLLM(ctx, user); err != nil {
		return err
	}
	out := run.Execute(ctx, []llm.Message{user}, sink)
	st := store.StatusDone
	switch {
	case ctx.Err() != nil:
		st = store.StatusCancelled
	case out.Status == agent.StatusError:
		st = store.StatusError
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if out.Err != nil {
		_ = w.AddNotice(fctx, store.NoticeError, out.Err.Error())
	}
	_ = w.Finalize(fctx, st, &out.Usage)
	if err := ctx.Err(); err != nil {
		return err
	}
	if out.Status == agent.StatusError {
		return out.Err
	}
	return nil // max rounds is not a failure: the auditor judges the work
}

// runReconcile is a turn that runs (or resumes) the session's approved
// reconcile run to Ready or Failed (CrashLoopBackOff). Stop cancels it between or
// inside steps; the last saved step runs again on resume.
func (e *Engine) runReconcile(ctx context.Context, t *turn, sink *turnSink) agent.Outcome {
	final, err := e.Modes.RunLoop(ctx, t.sessionID, t.id, reconcileAgents{e: e, t: t, sink: sink})
	if ctx.Err() != nil {
		return agent.Outcome{Status: agent.StatusCancelled}
	}
	if err != nil {
		return agent.Outcome{Status: agent.StatusError, Err: err}
	}
	sink.Append(reconcileOutcome(final))
	m := final.Manifest
	switch m.Status.Phase {
	case modes.PhaseReady:
		sink.Notice(e.Tr("Reconcile %s: Ready after %d loops; all tests pass.", m.Metadata.Name, len(final.Diffs)))
	default:
		sink.Notice(e.Tr("Reconcile %s: Failed after %d loops: %s", m.Metadata.Name, len(final.Diffs), m.Status.LastError))
	}
	return agent.Outcome{Status: agent.StatusDone}
}

// reconcileOutcome is the loop turn's reply in the model track: the loop's
// agents worked in child sessions, and the next turn's model should know
// how the run it started ended (model-facing, so English).
func reconcileOutcome(final modes.RunState) llm.Message {
	m := final.Manifest
	text := fmt.Sprintf("The reconcile loop for the manifest %q ended %s after %d loop(s); failing tests per loop: %v.",
		m.Metadata.Name, m.Status.Phase, len(final.Diffs), final.Diffs)
	if m.Status.LastError != "" {
		text += " Reason: " + m.Status.LastError
	}
	return llm.Message{Role: llm.RoleAssistant, Content: text}
}
