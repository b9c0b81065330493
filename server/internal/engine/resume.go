package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/recovery"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// A run a previous process left parked on a question to the user is found
// and rebuilt by package recovery; answering the question drives it here,
// as a turn (recovery.Deps.Resume).

// resumeParked starts the resumed run with the user's answer. It is called
// from Broker.Resolve and returns at once.
func (e *Engine) resumeParked(p *recovery.Parked, a approval.Answer) {
	sid := p.SessionID
	ctx, cancel := context.WithCancel(e.baseCtx)
	t := &turn{id: p.TurnID, sessionID: sid, number: p.Number, text: p.UserText, cancel: cancel, done: make(chan struct{}),
		view: view{btw: p.BTW, mode: e.Modes.Turn(ctx, sid)}}
	if l, ok := slashcmd.RestoreTurn(ctx, e.Store, sid, t.id); ok {
		t.limits = l
	}
	e.mu.Lock()
	// Take under e.mu: a turn started meanwhile keeps the session, and
	// the parked run is claimed only when this one starts.
	if e.running[sid] != nil || !e.recovery.Take(p) {
		e.mu.Unlock()
		cancel()
		return
	}
	e.running[sid] = t
	e.last[sid] = t
	e.mu.Unlock()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer close(t.done)
		defer e.releaseTurn(t)
		defer cancel()
		e.runResumed(ctx, t, p, a)
	}()
}

// runResumed runs the parked call with the recorded answer, then any
// later call of its round, then the agent loop, and finishes the turn as
// runTurn does.
func (e *Engine) runResumed(ctx context.Context, t *turn, p *recovery.Parked, a approval.Answer) {
	sid := t.sessionID
	w, err := e.Store.ResumeWriter(ctx, p.MessageID)
	if err != nil {
		e.log.Error("reopening the parked turn", zap.String("session", sid), zap.Error(err))
		e.releaseTurn(t)
		e.Broker.EndDialogs(sid, t.id)
		e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnFinished, MessageID: p.MessageID, Status: string(agent.StatusError)})
		return
	}
	e.mu.Lock()
	t.writer = w
	e.mu.Unlock()
	sink := &turnSink{e: e, t: t, w: w, msgID: p.MessageID, tag: TagFree}
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnStarted, SubAgentTag: TagFree, MessageID: p.MessageID, MessageSeq: p.MessageSeq, BTW: p.BTW})
	before := e.Meter.Of(ctx, sid)
	b := &begun{ids: store.TurnIDs{AssistantMessageID: p.MessageID, AssistantSeq: p.MessageSeq}, writer: w}
	var out agent.Outcome
	run, err := e.newRun(ctx, t, sink)
	if err == nil {
		b.history, err = e.Store.LLMMessages(ctx, sid)
	}
	if err != nil {
		out = agent.Outcome{Status: agent.StatusError, Err: err}
	} else {
		if ta, ok := run.Env.Approver.(*turnApprover); ok {
			if base, ok := ta.approvals.(*approval.Approver); ok {
				c := p.Confirm
				run.Env.Approver = &turnApprover{approvals: approval.Resume(base, c, a), e: ta.e, t: ta.t, resumed: &c, answer: a}
			}
		}
		if p.Confirm.Kind == "edit" && !p.Confirm.IsNew {
			// The tracker died with the previous process. The proposal
			// was computed from Original after the tool checked that the
			// model's view matched the disk, so Original is what the
			// model saw; a file changed since is then refused as stale.
			e.tracker(sid).RecordRead(p.Confirm.Path, []byte(p.Confirm.Original))
		}
		if p.Confirm.Kind == "question" {
			// The plan review asks outside the approver (ReviewPlan):
			// it finds the recorded answer in the call's context.
			ctx = approval.WithResumedAnswer(ctx, p.Confirm.ToolCallID, a)
		}
		out = run.Resume(ctx, b.history, p.Calls, &usageSink{turnSink: sink})
		out = e.afterFreeRun(ctx, t, b, sink, run, out)
		out = e.continueOnStop(ctx, t, b, sink, run, out)
	}
	e.finishTurn(ctx, t, b, sink, out, before)
}

// recoveryEvents tells the clients about a parked run that ended without
// its answer (recovery.Events).
type recoveryEvents struct{ bus *eventbus.Bus[Event, *Event] }

func (h recoveryEvents) ToolResult(sid, turnID, messageID string, c llm.ToolCall, output string) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, MessageID: messageID, SubAgentTag: TagFree, Kind: kinds.ToolResult, Status: "error",
		Tool: &ToolInfo{CallID: c.ID, Name: c.Name, Output: output}})
}

func (h recoveryEvents) TurnCancelled(sid, turnID, messageID string) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, MessageID: messageID, SubAgentTag: TagFree, Kind: kinds.TurnFinished, Status: string(agent.StatusCancelled)})
}

// newRecovery is run recovery with its collaborators.
func newRecovery(e *Engine) *recovery.Service {
	return recovery.New(recovery.Deps{Store: e.Store, Dialogs: e.Broker, Questions: e.questions, Events: recoveryEvents{bus: e.Bus},
		Resume: e.resumeParked, Changed: e.Sessions.Changed, ParseBTW: e.Slash.ParseBTW, Busy: ErrBusy, FreeTag: TagFree,
		Tr: e.Tr, Log: e.log, Base: e.baseCtx,
		Go: func(f func()) {
			e.wg.Add(1)
			go func() { defer e.wg.Done(); f() }()
		}})
}
