package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/host/config"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/humanerr"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/recovery"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// SendParams start a turn.
type SendParams struct {
	SessionID  string
	Text       string
	ActiveFile string
	Selection  string
	// RetryOf is the failed turn this send retries: it leaves the
	// transcript once this turn has begun (retry.go).
	RetryOf string
	// reconcile runs the session's approved reconcile loop instead of a
	// model turn (set by ApproveManifest and ResumeReconcile).
	reconcile bool
	// origin is set when a button, not the person, wrote Text
	// (store.OriginControl): the transcript shows it as the engine's.
	origin string
}

// ErrBusy is returned when a session already runs a turn.
var ErrBusy = errors.New("this session is still working on the previous message; stop it or wait")

// ErrRunningElsewhere is returned when another window's sidecar runs a
// turn of the session (store.ErrRunningElsewhere).
var ErrRunningElsewhere = errors.New("this chat is running a turn in another window")

// turn is one running user message. Its fields are set before the
// goroutine starts and then owned by it, except cancel (safe to call from
// anywhere) and done (closed when the turn has persisted its final state).
type turn struct {
	id        string
	sessionID string
	number    int
	text      string
	cancel    context.CancelFunc
	writer    *store.StreamWriter
	done      chan struct{}
	status    agent.Status
	view

	// mutated is set once the turn is about to change the workspace; only
	// such a turn gets an "after turn" snapshot.
	mutated atomic.Bool
	// notifications counts show_notification calls (capped per turn).
	notifications atomic.Int32
}

// view is the session as one turn sees it, loaded once in Send and passed
// on with the turn: what the rest of the turn asks about the session is
// answered from here, not read again from the store.
type view struct {
	// mode is the session's working mode (a switch applies from the next
	// turn).
	mode moderun.Turn
	// btw: the turn is a side conversation (/btw).
	btw bool
	// resume continues an interrupted todo plan; tag is the resumed
	// agent's subAgentTag (its messages start with this turn's).
	resume bool
	tag    string
	// hookContext is what UserPromptSubmit hooks added for the model.
	hookContext string
	// limits come from the custom command that started the turn
	// (slashcmd.Limits); the zero value means the session's.
	limits slashcmd.Limits
	// reconcile: the turn drives the reconcile loop (reconcile_run.go).
	reconcile bool
	// shell are the commands a custom command runs as it expands; their
	// output replaces their tokens before the model is asked
	// (slashcmd.RunShell).
	shell []customcmd.ShellCall
}

// Send starts a turn and returns at once; progress arrives on the Bus.
func (e *Engine) Send(ctx context.Context, p SendParams) (sessionID, turnID string, err error) {
	text := strings.TrimSpace(p.Text)
	if text == "" {
		return "", "", errors.New(e.Tr("the message is empty"))
	}
	// A new message instead of the answer a restored question waits for
	// closes that question first: its run ends without the call being
	// executed, and a compaction never sees the half-answered round.
	if err := e.recovery.Release(p.SessionID, "the user sent a new message instead of answering"); err != nil {
		return "", "", err
	}
	turnText, v := text, view{}
	out, matched, err := e.Slash.Run(ctx, slashcmd.Params{SessionID: p.SessionID, ActiveFile: p.ActiveFile, Selection: p.Selection}, text)
	if matched {
		if err != nil || out.Handled {
			return out.SessionID, out.TurnID, err
		}
		turnText, v.btw, v.limits, v.shell = out.Text, out.BTW, slashcmd.LimitsOf(out.Model, out.Allowed), out.Shell
		if v.limits.Model != "" {
			var note string
			if v.limits.Model, note = e.Profiles.Command(ctx, p.SessionID, v.limits.Model); note != "" {
				e.opts.OnNotice("info", note, "")
			}
		}
	}
	// The mode is read once, after the command ran (/reconcile switches it).
	v.mode = e.Modes.Turn(ctx, p.SessionID)
	if !matched && p.origin != store.OriginControl {
		// Reconcile mode's input is an intent, as /reconcile's argument.
		if d, ok := v.mode.DraftText(ctx, text); ok {
			turnText = d
		}
	}
	if p.SessionID == "" {
		s, err := e.Sessions.Create(ctx, "")
		if err != nil {
			return "", "", err
		}
		p.SessionID = s.ID
		v.mode = v.mode.In(s.ID)
	} else if _, err := e.Store.GetSession(ctx, p.SessionID); err != nil {
		return "", "", fmt.Errorf("session %s: %w", p.SessionID, err)
	} else {
		// A run a closed window left is settled first, so it neither
		// blocks this turn nor stays pending under it.
		e.recovery.Settle(ctx, p.SessionID)
	}
	v.reconcile = p.reconcile || (!v.btw && v.mode.ResumesReconcile(ctx, turnText))
	t := &turn{id: uuid.NewString(), sessionID: p.SessionID, text: turnText, done: make(chan struct{}), view: v}
	submit := e.hooks.Fire(ctx, t.id, hooks.Input{SessionID: p.SessionID, HookEventName: hooks.UserPromptSubmit, Prompt: turnText})
	if submit.Blocked {
		return "", "", errors.New(e.Tr("A UserPromptSubmit hook refused the message: %s", submit.Reason))
	}
	var added []string
	if c := strings.TrimSpace(e.hooks.TakeSessionContext(ctx, p.SessionID)); c != "" {
		added = append(added, c)
	}
	if c := strings.TrimSpace(submit.AdditionalContext); c != "" {
		added = append(added, c)
	}
	if len(added) > 0 {
		t.hookContext = "\n\n<hook_context>\n" + strings.Join(added, "\n") + "\n</hook_context>"
	}
	if !t.btw && !t.reconcile {
		t.resume, t.tag = e.Plans.ResumeTag(ctx, p.SessionID, t.text)
		if t.resume {
			if l, ok := slashcmd.FromPlan(ctx, e.Plans, p.SessionID); ok {
				t.limits = l
			}
		}
	}
	e.mu.Lock()
	if e.running[p.SessionID] != nil {
		e.mu.Unlock()
		return "", "", ErrBusy
	}
	e.running[p.SessionID] = t
	e.last[p.SessionID] = t
	e.recovery.Continued(p.SessionID)
	e.mu.Unlock()

	release := func() { e.releaseTurn(t) }
	begun, err := e.beginTurn(ctx, t, p)
	if err != nil {
		release()
		close(t.done)
		if errors.Is(err, store.ErrRunningElsewhere) {
			err = ErrRunningElsewhere
		}
		return "", "", err
	}
	if err := slashcmd.RecordTurn(ctx, e.Store, t.sessionID, t.id, t.limits); err != nil {
		e.log.Warn("recording the turn's command limits", zap.Error(err))
	}
	if p.RetryOf != "" {
		e.supersede(ctx, t.sessionID, p.RetryOf)
	}
	runCtx, cancel := context.WithCancel(e.baseCtx)
	e.mu.Lock()
	t.cancel = cancel
	t.writer = begun.writer
	e.mu.Unlock()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer close(t.done)
		defer release()
		defer cancel()
		e.runTurn(runCtx, t, begun)
	}()
	return p.SessionID, t.id, nil
}

// begun is what beginTurn committed.
type begun struct {
	ids     store.TurnIDs
	writer  *store.StreamWriter
	history []llm.Message
}

// beginTurn commits the user message and a pending assistant record before
// anything is sent to the model.
func (e *Engine) beginTurn(ctx context.Context, t *turn, p SendParams) (*begun, error) {
	sid := t.sessionID
	if err := e.applyBTWTransition(ctx, sid, t.btw); err != nil {
		return nil, err
	}
	history, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return nil, err
	}
	if fixed, changed := compact.Sanitize(history); changed {
		if err := e.Store.ReplaceLLMMessages(ctx, sid, 0, len(history), fixed); err != nil {
			return nil, err
		}
		history = fixed
	}
	state := e.contextState(ctx, t)
	state.ActiveFile, state.Selection = p.ActiveFile, p.Selection
	if !t.btw {
		state.Memory = e.memory.Take(ctx, sid)
	}
	before, after, extras := e.TurnInput.Prelude(ctx, turninput.Message{SessionID: sid, TurnText: t.text, ActiveFile: p.ActiveFile, BTW: t.btw,
		Env: func() *tools.Env { return e.toolEnv(ctx, t) }})
	userLLM := llm.Message{Role: llm.RoleUser, Content: agent.ContextBlock(state) + before + t.text + after + t.hookContext}
	opts := store.TurnOptions{LLM: []llm.Message{userLLM}, Origin: p.origin}
	if t.btw {
		opts.BTWBranch = store.BranchBTW
	}
	opts.SubAgentTag = TagFree
	if t.resume {
		opts.SubAgentTag = t.tag
	}
	ids, w, err := e.Store.BeginTurn(ctx, sid, p.Text, opts)
	if err != nil {
		return nil, err
	}
	// The turn is known by its user message from here on, so the id stays
	// valid in the stored transcript (session/load) and across restarts.
	e.mu.Lock()
	t.id = ids.UserMessageID
	e.mu.Unlock()
	t.number = e.turnNumber(ctx, sid)
	e.TurnInput.Record(ctx, sid, ids.UserMessageID, extras)
	e.tracker(sid).ResetTurn()
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.Message, SubAgentTag: opts.SubAgentTag, MessageID: ids.UserMessageID, MessageSeq: ids.UserSeq, Text: p.Text, Extras: &extras, Origin: p.origin, BTW: t.btw})
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnStarted, SubAgentTag: opts.SubAgentTag, MessageID: ids.AssistantMessageID, MessageSeq: ids.AssistantSeq, BTW: t.btw})
	if t.number == 1 {
		e.titles.Name(ctx, sid, t.text)
	}
	return &begun{ids: ids, writer: w, history: append(history, userLLM)}, nil
}

func (e *Engine) turnNumber(ctx context.Context, sid string) int {
	n := sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Turns) + 1
	_ = sessionstate.Set(ctx, e.Store, sid, sessionstate.Turns, n)
	return n
}

func (e *Engine) contextState(ctx context.Context, t *turn) agent.ContextState {
	st := agent.ContextState{EditEnabled: e.EditEnabled(ctx, t.sessionID), Skills: e.Skills.Active(ctx, t.sessionID)}
	st.Mode, st.Phase = t.mode.Where(ctx)
	if p := e.Plans.Todo(ctx, t.sessionID); p != nil && p.Remaining() > 0 {
		st.HasTodo, st.TodoRemaining = true, p.Remaining()
	}
	return st
}

func (e *Engine) runTurn(ctx context.Context, t *turn, b *begun) {
	sid := t.sessionID
	sink := &turnSink{e: e, t: t, w: b.writer, msgID: b.ids.AssistantMessageID, tag: firstNonEmpty(t.tag, TagFree)}
	e.TurnTools.NoticeSandbox(sink.Notice)
	before := e.Meter.Of(ctx, sid)
	run, err := e.newRun(ctx, t, sink)
	if err == nil && len(t.shell) > 0 {
		err = slashcmd.RunShell(ctx, e.toolEnv(ctx, t), t.id, t.shell, b.history, func(i int, m llm.Message) error {
			return e.Store.ReplaceLLMMessages(ctx, t.sessionID, i, i+1, []llm.Message{m})
		}, e.Tr)
	}
	var out agent.Outcome
	if err != nil {
		out = agent.Outcome{Status: agent.StatusError, Err: err}
	} else {
		if t.reconcile {
			out = moderun.RunReconcile(ctx, reconcileTurn(e, t, sink), reconcileAgents(e, t, sink))
		} else if t.resume {
			out = e.resumeSchedule(ctx, t, b, sink)
		} else {
			out = run.Execute(ctx, b.history, &usageSink{turnSink: sink})
			if t.mode.Mode() == modes.Phases {
				out = moderun.ContinuePhases(ctx, phasesTurn(e, t, b, sink), out)
			} else {
				out = e.afterFreeRun(ctx, t, b, sink, run, out)
			}
			out = e.continueOnStop(ctx, t, b, sink, run, out)
		}
	}
	e.finishTurn(ctx, t, b, sink, out, before)
}

// finishTurn persists how a turn's run ended and announces it: the final
// status, the snapshot after a completed turn, the turn's usage. A run
// suspended by the server stopping is left pending on disk, as a kill
// would leave it, so the next process asks its question again.
func (e *Engine) finishTurn(ctx context.Context, t *turn, b *begun, sink *turnSink, out agent.Outcome, before usage.Session) {
	sid := t.sessionID
	t.status = out.Status
	fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out.Suspended && errors.Is(context.Cause(ctx), errServerStopping) {
		if err := b.writer.Flush(fctx); err != nil {
			e.log.Error("flushing the suspended turn", zap.String("session", sid), zap.Error(err))
		}
		e.releaseTurn(t)
		return
	}
	st := store.StatusDone
	switch out.Status {
	case agent.StatusError:
		st = store.StatusError
	case agent.StatusCancelled:
		st = store.StatusCancelled
	}
	if out.Err != nil {
		info := ErrorInfo(humanerr.Explain(e.Tr, out.Err, e.Profiles.Active().BaseURL))
		_ = b.writer.AddNotice(fctx, store.NoticeError, info.Message)
		e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.Error, MessageID: sink.msgID, Err: &info})
	}
	usage := out.Usage
	if err := b.writer.Finalize(fctx, st, &usage); err != nil {
		e.log.Error("finalising the turn", zap.String("session", sid), zap.Error(err))
	}
	if !t.btw { // a side conversation keeps its own branch
		recovery.DropUnansweredPrompt(fctx, e.Store, e.log, sid, b.history)
	}
	// Only a turn that changed something gets an "after turn" snapshot, and
	// whatever its status: a stopped or failed turn's tools and shell
	// commands may have made files, and a restore deletes only files a
	// snapshot saw made. A chat-only turn leaves no snapshot behind.
	if !t.btw && t.mutated.Load() {
		if _, err := e.Rollback.Take(fctx, snapshot.Meta{SessionID: sid, Turn: t.number, TurnID: t.id, Message: t.text, Reason: snapshot.ReasonAfterTurn}); err != nil {
			e.log.Warn("snapshot after turn", zap.Error(err))
		}
		e.Rollback.MaybePrune()
		e.memory.Note(fctx, sid, e.Rollback.TurnChanges(fctx, sid, t.id))
	}
	tu := e.Meter.FinishTurn(fctx, sid, t.number, before)
	e.Broker.EndDialogs(sid, t.id)
	// Free the session before announcing the end, so a client that sends
	// its next message on turnFinished is never told the session is busy.
	e.releaseTurn(t)
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnFinished, MessageID: sink.msgID, Status: string(out.Status),
		Usage: &UsageInfo{Usage: tu.Usage}, Payload: eventview.Context(e.ContextUse(fctx, sid))})
	e.Sessions.Changed(fctx, sid)
}

// newRun assembles the agent run for a turn.
func (e *Engine) newRun(ctx context.Context, t *turn, sink *turnSink) (*agent.Run, error) {
	profile := e.Profiles.Turn(ctx, t.sessionID, t.limits.Model)
	client, err := e.client(profile)
	if err != nil {
		return nil, err
	}
	if t.limits.Model == "" { // a command's model holds for its turn only
		e.Sessions.RecordModel(ctx, t.sessionID, profile.Model)
	}
	v := e.Settings()
	cs := config.Typed(v)
	env := e.toolEnv(ctx, t)
	// The prompt follows the run's tools and where it stands: a phase
	// change (Phases mode) rewrites it, as it already changes the tools
	// offered. A side conversation keeps create_todo_list in the offered
	// list and refuses it on call instead (Decision.Refused): the tool
	// definitions stay byte-identical to the main conversation's, so the
	// prefix cache keeps hitting.
	ts, sit, d := e.TurnTools.FreeRun(ctx, t.tools())
	system := e.TurnTools.Prompt(t.sessionID, sit, d)
	return &agent.Run{
		Client:          client,
		Tools:           ts,
		Blocked:         d.Blocked,
		Deferred:        d.Deferred,
		Refused:         d.Refused,
		Translate:       e.Tr,
		StopAfter:       freeStopAfter(t),
		StopWhen:        firstStop(e.hooks.StopWhen(t.id), t.mode.StopWhen(ctx)),
		Env:             env,
		System:          system,
		MaxRounds:       cs.MaxInteractions,
		ToolCalling:     e.Profiles.ToolCalling(profile),
		OnTextFallback:  e.Profiles.OnTextFallback(profile),
		SessionID:       t.sessionID,
		MaxTokens:       profile.MaxOutputTokens,
		Prepare:         e.Compaction.Prepare(t.sessionID, t.id, true), // free-phase runs may compact first
		OverflowCompact: e.overflowHook(t),
		Notes:           e.TurnInput.Notes(ctx, t.sessionID, t.id),
	}, nil
}

// firstStop asks each check in turn (nil ones are skipped): a hook's
// "continue": false, then the mode's own end.
func firstStop(checks ...func() string) func() string {
	return func() string {
		for _, c := range checks {
			if c == nil {
				continue
			}
			if why := c(); why != "" {
				return why
			}
		}
		return ""
	}
}
