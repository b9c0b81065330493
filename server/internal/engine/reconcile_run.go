package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/shell"
	"github.com/govibe/govibe/server/internal/snapshot"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/tools"
)

// reconcileTurn is the engine's modes.Reconciler: a turn that drives the
// reconcile loop (modes.RunReconcile holds its rules). Each scoped agent
// runs in a hidden child session, so the loop's agents never fill the
// session's model track; their progress reaches the parent's UI under
// their tag (specifier:N, coder:N). Used from the turn's goroutine only.
type reconcileTurn struct {
	e    *Engine
	t    *turn
	sink *turnSink
	// st is the last state saved, published with the agent now running.
	st    modes.RunState
	agent string
	// last is the step whose work the next test run checks.
	last modes.Step
}

// ReasonReconcileLoop is the snapshot taken after each reconcile loop.
const ReasonReconcileLoop = "reconcile loop"

func (r *reconcileTurn) tag(step modes.Step) string {
	return fmt.Sprintf("%s:%d", step, len(r.st.Diffs)+1)
}

// RunAgent runs one scoped agent to its end: the step's whitelist is
// offered and enforced, and its write tools carry the step's path rule
// (the specifier writes tests only, the coder never does).
func (r *reconcileTurn) RunAgent(ctx context.Context, step modes.Step, prompt string) error {
	e, sid := r.e, r.t.sessionID
	tag := r.tag(step)
	r.agent, r.last = tag, step
	r.publish()
	child, err := e.Store.CreateSession(ctx, store.NewSession{ParentID: sid, Kind: store.KindSubagent, Hidden: true,
		Title: "reconcile " + tag, Model: e.profile().Model, ParentMessageID: e.openMessageID(sid)})
	if err != nil {
		return err
	}
	ids, w, err := e.Store.BeginTurn(ctx, child.ID, prompt, store.TurnOptions{SubAgentTag: tag, Origin: store.OriginSubagentTask})
	if err != nil {
		return err
	}
	sink := &turnSink{e: e, t: &turn{id: r.t.id, sessionID: sid}, w: w, msgID: ids.AssistantMessageID, tag: tag}
	profile := e.sessionProfile(ctx, sid)
	client, err := e.client(profile)
	if err != nil {
		return err
	}
	ts, blocked := e.reconcileTools(step)
	env := e.toolEnv(ctx, r.t)
	env.SessionID = child.ID
	run := &agent.Run{Client: client, Tools: ts, Blocked: blocked, Env: env, System: e.systemPrompt(), Translate: e.tr,
		MaxRounds: e.schedLimits().MaxAgentTurns, MaxRoundsSetting: "govibe.scheduler.maxAgentTurns",
		ToolCalling: e.toolCalling(profile), OnTextFallback: e.onTextFallback(profile), SessionID: child.ID, MaxTokens: profile.MaxOutputTokens}
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

// reconcileTools is what a scoped agent is given: the built-in tools
// with the step's refusals, and its path rule on every write tool.
func (e *Engine) reconcileTools(step modes.Step) ([]tools.Tool, map[string]string) {
	ts := e.hooks.WithHooks(tools.Builtin())
	rule := modes.WriteRule(step)
	infos := make([]modes.ToolInfo, len(ts))
	for i, t := range ts {
		infos[i] = modes.ToolInfo{Name: t.Name(), ReadOnly: t.ReadOnly()}
		switch {
		case writeTools[t.Name()]:
			ts[i] = pathGuard{Tool: t, rule: rule}
		case t.Name() == modes.ToolShell:
			// Files change through the write tools, where the path rule
			// holds; the shell may only read and run checks (the tests).
			ts[i] = checksOnlyShell(t, e.opts.Roots, "the "+string(step))
		}
	}
	return ts, modes.PhaseOf(modes.Reconcile, string(step)).Blocked(infos)
}

// RunTests is the auditor: the manifest's command in the first workspace
// root, with no model call. A failing command is expected (tests fail);
// only a command that could not start is an error.
func (r *reconcileTurn) RunTests(ctx context.Context, command string) (string, error) {
	e := r.e
	r.agent = fmt.Sprintf("%s:%d", modes.Auditor, len(r.st.Diffs)+1)
	r.publish()
	cs := config.Typed(e.Settings())
	res, err := shell.Run(ctx, shell.Spec{Command: command, Cwd: e.opts.Roots[0],
		Timeout: time.Duration(cs.Reconcile.TestTimeoutMs) * time.Millisecond, MaxOutput: 4 << 20, Passthrough: cs.Shell.Env.Passthrough})
	if err != nil {
		return "", err
	}
	if res.TimedOut {
		return "", fmt.Errorf("the test command timed out after %d ms", cs.Reconcile.TestTimeoutMs)
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	out := res.Stdout + "\n" + res.Stderr
	if d, perr := modes.ParseDiff(out); perr == nil {
		if r.last == modes.Specifier {
			r.sink.Notice(e.tr("Auditor, on the specifier's tests: %d failing, %d passing.", d.Failed, d.Passed))
		} else {
			r.sink.Notice(e.tr("Auditor, after loop %d: %d failing, %d passing.", len(r.st.Diffs)+1, d.Failed, d.Passed))
		}
	}
	return out, nil
}

// Snapshot records the workspace after a loop.
func (r *reconcileTurn) Snapshot(ctx context.Context, loop int) error {
	_, err := r.e.snaps.Take(ctx, snapshot.Meta{SessionID: r.t.sessionID, Turn: r.t.number, TurnID: r.t.id,
		Message: fmt.Sprintf("reconcile %s: loop %d", r.st.Manifest.Metadata.Name, loop), Reason: ReasonReconcileLoop})
	return err
}

// Save persists the run (session state, so a restart resumes it) and
// writes its status back into the manifest file.
func (r *reconcileTurn) Save(ctx context.Context, st modes.RunState) error {
	r.st = st
	if err := sessionstate.Set(ctx, r.e.Store, r.t.sessionID, sessionstate.ReconcileRun, st); err != nil {
		return err
	}
	return r.e.writeManifest(st.Manifest)
}

// Publish tells the panel; the agent shown is the next step's.
func (r *reconcileTurn) Publish(st modes.RunState) {
	r.st = st
	r.agent = ""
	r.publish()
}

func (r *reconcileTurn) publish() {
	r.e.Bus.Publish(Event{SessionID: r.t.sessionID, TurnID: r.t.id, Kind: KindMode,
		Payload: ReconcileView{Run: r.st, Running: true, Agent: r.agent, MaxLoops: r.e.maxLoops()}})
}

// runReconcile is a turn that runs (or resumes) the session's approved
// reconcile run to Ready or CrashLoopBackOff. Stop cancels it between or
// inside steps; the last saved step runs again on resume.
func (e *Engine) runReconcile(ctx context.Context, t *turn, sink *turnSink) agent.Outcome {
	sid := t.sessionID
	st, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.ReconcileRun)
	if err != nil || !ok {
		return agent.Outcome{Status: agent.StatusError, Err: fmt.Errorf("no reconcile run to start: %v", err)}
	}
	cs := config.Typed(e.Settings())
	lim := modes.Limits{MaxTotalLoops: cs.Reconcile.MaxTotalLoops, MaxStagnation: cs.Reconcile.MaxStagnation}
	rc := &reconcileTurn{e: e, t: t, sink: sink, st: st}
	rc.publish()
	final, err := modes.RunReconcile(ctx, rc, st, lim)
	// The panel learns the run stopped (or ended) whatever happened.
	defer e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: KindMode, Payload: ReconcileView{Run: rc.st, MaxLoops: e.maxLoops()}})
	if ctx.Err() != nil {
		return agent.Outcome{Status: agent.StatusCancelled}
	}
	if err != nil {
		return agent.Outcome{Status: agent.StatusError, Err: err}
	}
	rc.st = final
	sink.Append(reconcileOutcome(final))
	m := final.Manifest
	switch m.Status.Phase {
	case modes.PhaseReady:
		sink.Notice(e.tr("Reconcile %s: Ready after %d loops; all tests pass.", m.Metadata.Name, len(final.Diffs)))
	default:
		sink.Notice(e.tr("Reconcile %s: CrashLoopBackOff after %d loops: %s", m.Metadata.Name, len(final.Diffs), m.Status.LastError))
	}
	return agent.Outcome{Status: agent.StatusDone}
}
