package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/slashcmd"
	"github.com/govibe/govibe/server/internal/store"
)

// parkedTurn is a run a previous process left waiting on a question to the
// user (an edit or a shell command): its assistant message is still
// pending, the question still pending on disk, and the model track ends
// with the round whose calls lack results.
//
// It is built at start-up and never changed afterwards. Ownership passes
// through e.parked (under e.mu): whichever of resumeParked (the answer) or
// releaseParked (a new message, Stop) first removed the question from the
// Broker acts on it; the other does nothing.
type parkedTurn struct {
	sessionID  string
	turnID     string
	messageID  string
	messageSeq int64
	confirm    approval.Confirm
	// calls are the last round's calls still without a result, in order;
	// the confirmed call is one of them.
	calls []llm.ToolCall
	btw   bool
	// userText and number describe the user message the run answers
	// (snapshot labels, reviewers' context).
	userText string
	number   int
	// asked is when the question was first asked: an ask_human question's
	// timeout runs on from there across restarts.
	asked time.Time
}

// resumableKinds are the questions whose tool can run again with the
// recorded answer (an MCP call's too).
var resumableKinds = map[string]bool{"edit": true, "shell": true, "tool": true, "fetch": true}

// resumable reports whether the question c about a call named tool can be
// answered after a restart: edits, commands, MCP calls, ask_human's
// questions and the plan reviewer's "use this plan anyway?" about
// create_todo_list (the tool runs again and takes the recorded reply; the
// plan review does not run again).
func resumable(kind, tool string) bool {
	return resumableKinds[kind] || (kind == "question" && (tool == "ask_human" || tool == scheduler.ToolCreateTodo))
}

// findParked reports the run m left waiting on one of the open questions,
// or nil when m was interrupted in any other state (streaming, a tool
// running, inside a todo plan's step, text tool-call protocol).
func (e *Engine) findParked(ctx context.Context, m store.PendingMessage, open []store.Confirmation) *parkedTurn {
	msg, err := e.Store.GetMessage(ctx, m.ID)
	if err != nil || msg.Role != store.RoleAssistant || (msg.SubAgentTag != "" && msg.SubAgentTag != TagFree) {
		return nil
	}
	// Calls of this message that wait: recorded, neither finished nor
	// answered.
	waiting := map[string]string{} // call id → tool name
	for _, p := range msg.Parts {
		if p.Kind == store.PartToolCall && (p.ToolCall.Status == store.ToolPending || p.ToolCall.Status == store.ToolRunning) {
			waiting[p.ToolCall.ID] = p.ToolCall.Name
		}
	}
	for _, p := range msg.Parts {
		if p.Kind == store.PartToolResult {
			delete(waiting, p.ToolResult.ToolCallID)
		}
	}
	var conf *store.Confirmation
	for i := range open {
		if c := &open[i]; c.SessionID == m.SessionID && waiting[c.ToolCallID] != "" && resumable(c.Kind, waiting[c.ToolCallID]) {
			conf = c
			break
		}
	}
	if conf == nil {
		return nil
	}
	var c approval.Confirm
	if err := json.Unmarshal(conf.Payload, &c); err != nil || c.Kind != conf.Kind {
		return nil
	}
	c.ID, c.SessionID, c.ToolCallID = conf.ID, conf.SessionID, conf.ToolCallID
	calls := unansweredCalls(e.llmEntries(ctx, m.SessionID), m.ID)
	found := false
	for _, call := range calls {
		found = found || call.ID == c.ToolCallID
	}
	if !found {
		return nil
	}
	if c.TurnID == "" {
		c.TurnID = uuid.NewString()
	}
	p := &parkedTurn{sessionID: m.SessionID, turnID: c.TurnID, messageID: m.ID, messageSeq: msg.Seq, confirm: c,
		calls: calls, btw: msg.BTWBranch != "", number: e.currentTurnNumber(ctx, m.SessionID), asked: conf.Created}
	if u, err := e.Store.GetMessage(ctx, msg.ReplyTo); err == nil {
		for _, part := range u.Parts {
			if part.Kind == store.PartText {
				p.userText = part.Text
				break
			}
		}
	}
	_, p.userText = e.Slash.ParseBTW(p.userText)
	return p
}

func (e *Engine) llmEntries(ctx context.Context, sid string) []store.LLMEntry {
	entries, err := e.Store.LLMEntries(ctx, sid)
	if err != nil {
		return nil
	}
	return entries
}

// unansweredCalls returns the calls of the model track's last round still
// without a result, provided that round came from message msgID and
// nothing but its results follows it; otherwise nil (the track was
// rewritten, or the round is not the one the message is parked in).
func unansweredCalls(entries []store.LLMEntry, msgID string) []llm.ToolCall {
	last := -1
	for i := len(entries) - 1; i >= 0; i-- {
		if m := entries[i].Message; m.Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || entries[last].SourceMessageID != msgID || len(entries[last].Message.ToolCalls) == 0 {
		return nil
	}
	answered := map[string]bool{}
	for _, en := range entries[last+1:] {
		if en.Message.Role != llm.RoleTool {
			return nil
		}
		answered[en.Message.ToolCallID] = true
	}
	var out []llm.ToolCall
	for _, c := range entries[last].Message.ToolCalls {
		if !answered[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// currentTurnNumber is the number of the session's latest turn, without
// counting a new one.
func (e *Engine) currentTurnNumber(ctx context.Context, sid string) int {
	return sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Turns)
}

// park re-registers p's question and shows it again; answering it resumes
// the run.
func (e *Engine) park(p *parkedTurn) {
	e.mu.Lock()
	e.parked[p.sessionID] = p
	delete(e.interrupted, p.sessionID)
	e.mu.Unlock()
	e.Broker.Restore(p.confirm, func(a approval.Answer) { e.resumeParked(p, a) })
	e.questions.ExpireRestored(p.confirm, p.calls, p.asked)
}

// resumeParked starts the resumed run with the user's answer. It is called
// from Broker.Resolve and returns at once.
func (e *Engine) resumeParked(p *parkedTurn, a approval.Answer) {
	sid := p.sessionID
	ctx, cancel := context.WithCancel(e.baseCtx)
	t := &turn{id: p.turnID, sessionID: sid, number: p.number, text: p.userText, cancel: cancel, done: make(chan struct{}),
		view: view{btw: p.btw, mode: e.Modes.Turn(ctx, sid)}}
	if l, ok := slashcmd.RestoreTurn(ctx, e.Store, sid, t.id); ok {
		t.limits = l
	}
	e.mu.Lock()
	if e.parked[sid] != p || e.running[sid] != nil {
		e.mu.Unlock()
		cancel()
		return
	}
	delete(e.parked, sid)
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
func (e *Engine) runResumed(ctx context.Context, t *turn, p *parkedTurn, a approval.Answer) {
	sid := t.sessionID
	w, err := e.Store.ResumeWriter(ctx, p.messageID)
	if err != nil {
		e.log.Error("reopening the parked turn", zap.String("session", sid), zap.Error(err))
		e.releaseTurn(t)
		e.Broker.EndDialogs(sid, t.id)
		e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnFinished, MessageID: p.messageID, Status: string(agent.StatusError)})
		return
	}
	e.mu.Lock()
	t.writer = w
	e.mu.Unlock()
	sink := &turnSink{e: e, t: t, w: w, msgID: p.messageID, tag: TagFree}
	e.Bus.Publish(Event{SessionID: sid, TurnID: t.id, Kind: kinds.TurnStarted, SubAgentTag: TagFree, MessageID: p.messageID, MessageSeq: p.messageSeq, BTW: p.btw})
	before := e.Meter.Of(ctx, sid)
	b := &begun{ids: store.TurnIDs{AssistantMessageID: p.messageID, AssistantSeq: p.messageSeq}, writer: w}
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
				c := p.confirm
				run.Env.Approver = &turnApprover{approvals: approval.Resume(base, c, a), e: ta.e, t: ta.t, resumed: &c, answer: a}
			}
		}
		if p.confirm.Kind == "edit" && !p.confirm.IsNew {
			// The tracker died with the previous process. The proposal
			// was computed from Original after the tool checked that the
			// model's view matched the disk, so Original is what the
			// model saw; a file changed since is then refused as stale.
			e.tracker(sid).RecordRead(p.confirm.Path, []byte(p.confirm.Original))
		}
		if p.confirm.Kind == "question" {
			// The plan review asks outside the approver (ReviewPlan):
			// it finds the recorded answer in the call's context.
			ctx = approval.WithResumedAnswer(ctx, p.confirm.ToolCallID, a)
		}
		out = run.Resume(ctx, b.history, p.calls, &usageSink{turnSink: sink})
		out = e.afterFreeRun(ctx, t, b, sink, run, out)
		out = e.continueOnStop(ctx, t, b, sink, run, out)
	}
	e.finishTurn(ctx, t, b, sink, out, before)
}

// releaseParked closes the session's restored question without an answer
// and ends its run: every call still without a result gets one saying it
// was not executed and why, so the model track keeps one result per call.
// It returns ErrBusy when the answer won the race and the run is resuming.
func (e *Engine) releaseParked(sid, why string) error {
	e.mu.Lock()
	p := e.parked[sid]
	e.mu.Unlock()
	if p == nil {
		return nil
	}
	if !e.Broker.Withdraw(p.confirm.ID) {
		return ErrBusy
	}
	// p stays in e.parked until its message is closed, so a concurrent
	// Send waits (ErrBusy) instead of starting a turn before the results.
	defer func() {
		e.mu.Lock()
		if e.parked[sid] == p {
			delete(e.parked, sid)
		}
		e.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w, err := e.Store.ResumeWriter(ctx, p.messageID)
	if err != nil {
		return err
	}
	text := "interrupted: not executed (" + why + ")"
	for _, c := range p.calls {
		if err := w.AddToolResult(ctx, store.ToolResult{ToolCallID: c.ID, Output: text},
			llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: "Error: " + text}); err != nil {
			return err
		}
		e.Bus.Publish(Event{SessionID: sid, TurnID: p.turnID, MessageID: p.messageID, SubAgentTag: TagFree, Kind: kinds.ToolResult, Status: "error",
			Tool: &ToolInfo{CallID: c.ID, Name: c.Name, Output: text}})
	}
	if err := w.Finalize(ctx, store.StatusCancelled, nil); err != nil {
		return err
	}
	e.Bus.Publish(Event{SessionID: sid, TurnID: p.turnID, MessageID: p.messageID, SubAgentTag: TagFree, Kind: kinds.TurnFinished, Status: string(agent.StatusCancelled)})
	e.Sessions.Changed(ctx, sid)
	return nil
}
