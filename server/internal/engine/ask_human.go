package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/tools"
)

// DefaultAskHumanTimeout is how long ask_human waits when the setting is
// unset.
const DefaultAskHumanTimeout = approval.DefaultQuestionTimeout

// Reply semantics of a "question" Confirm answered from the dialog:
//   - Send:   Accept=true,  Answer=text            → "The user replied: …"
//   - Done:   Accept=true,  Answer=text, Reason=ReasonDone
//     → "… and is done with this topic: …"
//   - Cancel: Accept=false                          → "The user cancelled …"
//
// Each answer ends this call. After Send the dialog stays open and the
// model's next ask_human of the turn is asked in it (broker_dialog.go);
// Done and Cancel close it.
const ReasonDone = approval.ReasonDone

// AskHuman parks the question on the Broker (persisted, so a reload or a
// restart shows it again) or, headless, asks the terminal.
func (a *turnApprover) AskHuman(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
	if r := a.resumed; r != nil && r.Kind == "question" && q.ToolCallID == r.ToolCallID {
		// A resumed run answers the restored question with the reply the
		// user gave after the restart.
		return a.e.replyOf(a.answer), nil
	}
	if a.e.opts.Headless && a.e.opts.AskTerminal == nil {
		return tools.HumanReply{}, tools.ErrNoHuman
	}
	// The timeout holds for the terminal too: an unattended TTY must not
	// keep a headless run waiting forever.
	timeout := a.e.askHumanTimeout()
	wctx, cancel := context.WithTimeoutCause(ctx, timeout, errAskTimeout)
	defer cancel()
	var r tools.HumanReply
	var err error
	if a.e.opts.Headless {
		if r, err = a.e.opts.AskTerminal(wctx, q); err == nil {
			a.e.SessionCompaction.RecordHeadlessAnswer(ctx, a.t.sessionID, q, r)
		}
	} else {
		c := approval.Confirm{SessionID: a.t.sessionID, TurnID: a.t.id, ToolCallID: q.ToolCallID,
			Kind: "question", Question: q.Question, Options: q.Options}
		a.e.Broker.continueDialog(&c)
		var ans approval.Answer
		if ans, err = a.e.Broker.Ask(wctx, c); err == nil {
			r = replyOf(ans)
		}
	}
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(wctx), errAskTimeout) {
		return tools.HumanReply{TimedOut: true, Timeout: timeout.String()}, nil
	}
	return r, err
}

var errAskTimeout = errors.New("ask_human timed out")

// reasonTimedOut marks the answer a restored question gets when its
// timeout runs out (never sent by a client: Expire makes it).
const reasonTimedOut = approval.ReasonTimedOut

// expireRestoredAsk keeps the askHuman.timeoutMs of a question (ask_human's,
// or the plan question of create_todo_list) restored after a restart,
// counted from when it was first asked: when it runs out the run resumes
// and the model is told nobody answered, as it would have been without
// the restart.
func (e *Engine) expireRestoredAsk(p *parkedTurn) {
	if p.confirm.Kind != "question" || !slices.ContainsFunc(p.calls, func(c llm.ToolCall) bool {
		return c.ID == p.confirm.ToolCallID && (c.Name == "ask_human" || c.Name == scheduler.ToolCreateTodo)
	}) {
		return
	}
	asked := p.asked
	if asked.IsZero() {
		asked = time.Now()
	}
	left := time.Until(asked.Add(e.askHumanTimeout()))
	time.AfterFunc(max(left, 0), func() {
		if e.baseCtx.Err() == nil {
			e.Broker.Expire(p.confirm.ID, approval.Answer{Reason: reasonTimedOut})
		}
	})
}

func (e *Engine) replyOf(ans approval.Answer) tools.HumanReply {
	if ans.Reason == reasonTimedOut {
		return tools.HumanReply{TimedOut: true, Timeout: e.askHumanTimeout().String()}
	}
	return replyOf(ans)
}

func replyOf(ans approval.Answer) tools.HumanReply {
	if ans.Reason == reasonClosed {
		return tools.HumanReply{Closed: true}
	}
	if !ans.Accept {
		return tools.HumanReply{Cancelled: true}
	}
	return tools.HumanReply{Reply: strings.TrimSpace(ans.Answer), Done: ans.Reason == ReasonDone}
}

func (e *Engine) askHumanTimeout() time.Duration {
	ms := config.Typed(e.Settings()).AskHuman.TimeoutMs
	if ms <= 0 {
		return DefaultAskHumanTimeout
	}
	return time.Duration(ms) * time.Millisecond
}
