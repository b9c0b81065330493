package moderun

import (
	"context"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// ReasonReconcileLoop is the snapshot taken after each reconcile loop.
const ReasonReconcileLoop = "reconcile loop"

// ReconcileTurn is what a reconcile turn needs from the engine: the
// session's loop (Modes.RunLoop bound to the turn), and the turn's
// notices and model track.
type ReconcileTurn struct {
	Loop   func(ctx context.Context, a Agents) (modes.RunState, error)
	Notice func(text string)
	// Append adds the loop's outcome to the turn's reply in the model track.
	Append func(m llm.Message)
	Tr     func(msg string, args ...any) string
}

// RunReconcile is a turn that runs (or resumes) the session's approved
// reconcile run to Ready or Failed (CrashLoopBackOff). Stop cancels it
// between or inside steps; the last saved step runs again on resume.
func RunReconcile(ctx context.Context, r ReconcileTurn, a Agents) agent.Outcome {
	final, err := r.Loop(ctx, a)
	if ctx.Err() != nil {
		return agent.Outcome{Status: agent.StatusCancelled}
	}
	if err != nil {
		return agent.Outcome{Status: agent.StatusError, Err: err}
	}
	r.Append(reconcileOutcome(final))
	m := final.Manifest
	switch m.Status.Phase {
	case modes.PhaseReady:
		r.Notice(r.Tr("Reconcile %s: Ready after %d loops; all tests pass.", m.Metadata.Name, len(final.Diffs)))
	default:
		r.Notice(r.Tr("Reconcile %s: Failed after %d loops: %s", m.Metadata.Name, len(final.Diffs), m.Status.LastError))
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

// ChildWriter is the store side of a scoped agent's hidden child turn.
type ChildWriter interface {
	CommitLLM(ctx context.Context, msgs ...llm.Message) error
	AddNotice(ctx context.Context, level store.NoticeLevel, text string) error
	Finalize(ctx context.Context, st store.MessageStatus, usage *llm.Usage, llmMsgs ...llm.Message) error
}

// ChildAgent is one scoped agent's run, set up by the engine in a hidden
// child session: the run with the step's tools, the sink that shows its
// progress under its tag, and the child turn's writer.
type ChildAgent struct {
	Run    *agent.Run
	Sink   agent.Sink
	Writer ChildWriter
}

// RunChild runs one scoped agent to its end on prompt and finalizes its
// child turn (cancelled, error or done). Max rounds is not a failure: the
// auditor judges the work.
func RunChild(ctx context.Context, c ChildAgent, prompt string) error {
	user := llm.Message{Role: llm.RoleUser, Content: prompt}
	if err := c.Writer.CommitLLM(ctx, user); err != nil {
		return err
	}
	out := c.Run.Execute(ctx, []llm.Message{user}, c.Sink)
	st := store.StatusDone
	switch {
	case ctx.Err() != nil:
		st = store.StatusCancelled
	case out.Status == agent.StatusError:
		st = store.StatusError
	}
	// The child turn is finalized even when the turn was stopped.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if out.Err != nil {
		_ = c.Writer.AddNotice(fctx, store.NoticeError, out.Err.Error())
	}
	_ = c.Writer.Finalize(fctx, st, &out.Usage)
	if err := ctx.Err(); err != nil {
		return err
	}
	if out.Status == agent.StatusError {
		return out.Err
	}
	return nil
}

// AgentFuncs is Agents from plain functions (the engine's adapter).
type AgentFuncs struct {
	RunFunc      func(ctx context.Context, step modes.Step, tag, prompt string) error
	SnapshotFunc func(ctx context.Context, message string) error
	NoticeFunc   func(text string)
}

func (a AgentFuncs) Run(ctx context.Context, step modes.Step, tag, prompt string) error {
	return a.RunFunc(ctx, step, tag, prompt)
}

func (a AgentFuncs) Snapshot(ctx context.Context, message string) error {
	return a.SnapshotFunc(ctx, message)
}

func (a AgentFuncs) Notice(text string) { a.NoticeFunc(text) }
