package dialogs

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Reply semantics of a "question" Confirm answered from the dialog:
//   - Send:   Accept=true,  Answer=text            → "The user replied: …"
//   - Done:   Accept=true,  Answer=text, Reason=approval.ReasonDone
//     → "… and is done with this topic: …"
//   - Cancel: Accept=false                          → "The user cancelled …"
//
// Each answer ends this call. After Send the dialog stays open and the
// model's next ask_human of the turn is asked in it (dialog.go); Done and
// Cancel close it.

// QuestionOptions are what Questions uses besides the Broker and the store.
type QuestionOptions struct {
	// Headless runs ask at the terminal (Terminal; nil: nobody can
	// answer) instead of on the Broker.
	Headless bool
	Terminal func(context.Context, tools.HumanQuestion) (tools.HumanReply, error)
	// Timeout is askHuman.timeoutMs (approval.Approvals.QuestionTimeout),
	// read at each question so a settings change applies.
	Timeout func() time.Duration
	// Base ends with the process: a restored question's expiry does
	// nothing after it.
	Base context.Context
	Log  *zap.Logger
}

// Questions asks ask_human's questions: in a dialog on the Broker
// (persisted, so a reload or a restart shows it again) or, headless, at
// the terminal, each under askHuman.timeoutMs. Safe for concurrent use.
type Questions struct {
	broker *Broker
	store  Store
	o      QuestionOptions
}

// NewQuestions returns the asker of ask_human's questions; st records the
// terminal's answers (nil: not recorded).
func NewQuestions(b *Broker, st Store, o QuestionOptions) *Questions {
	if o.Base == nil {
		o.Base = context.Background()
	}
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.Timeout == nil {
		o.Timeout = func() time.Duration { return approval.DefaultQuestionTimeout }
	}
	return &Questions{broker: b, store: st, o: o}
}

var errAskTimeout = errors.New("ask_human timed out")

// Ask asks q for the turn turnID of session sid and waits for the reply,
// the timeout (a TimedOut reply) or ctx's end.
func (qs *Questions) Ask(ctx context.Context, sid, turnID string, q tools.HumanQuestion) (tools.HumanReply, error) {
	if qs.o.Headless && qs.o.Terminal == nil {
		return tools.HumanReply{}, tools.ErrNoHuman
	}
	// The timeout holds for the terminal too: an unattended TTY must not
	// keep a headless run waiting forever.
	timeout := qs.o.Timeout()
	wctx, cancel := context.WithTimeoutCause(ctx, timeout, errAskTimeout)
	defer cancel()
	var r tools.HumanReply
	var err error
	if qs.o.Headless {
		if r, err = qs.o.Terminal(wctx, q); err == nil {
			qs.recordTerminal(ctx, sid, q, r)
		}
	} else {
		c := approval.Confirm{SessionID: sid, TurnID: turnID, ToolCallID: q.ToolCallID,
			Kind: "question", Question: q.Question, Options: q.Options}
		qs.broker.continueDialog(&c)
		var ans approval.Answer
		if ans, err = qs.broker.Ask(wctx, c); err == nil {
			r = replyOf(ans)
		}
	}
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(wctx), errAskTimeout) {
		return tools.HumanReply{TimedOut: true, Timeout: timeout.String()}, nil
	}
	return r, err
}

// ExpireRestored keeps the askHuman.timeoutMs of a question (ask_human's,
// or the plan question of create_todo_list) restored after a restart,
// counted from asked, when it was first asked: when it runs out the Broker
// hands its onAnswer approval.ReasonTimedOut, so the resumed run tells the
// model nobody answered, as it would have without the restart. calls are
// the parked round's calls without a result; any other question is left
// alone.
func (qs *Questions) ExpireRestored(c approval.Confirm, calls []llm.ToolCall, asked time.Time) {
	if c.Kind != "question" || !slices.ContainsFunc(calls, func(call llm.ToolCall) bool {
		return call.ID == c.ToolCallID && (call.Name == "ask_human" || call.Name == scheduler.ToolCreateTodo)
	}) {
		return
	}
	if asked.IsZero() {
		asked = time.Now()
	}
	left := time.Until(asked.Add(qs.o.Timeout()))
	time.AfterFunc(max(left, 0), func() {
		if qs.o.Base.Err() == nil {
			qs.broker.Expire(c.ID, approval.Answer{Reason: approval.ReasonTimedOut})
		}
	})
}

// ReplyOf is the reply an answer to a restored question gives its
// resumed run (the expiry's included).
func (qs *Questions) ReplyOf(ans approval.Answer) tools.HumanReply {
	if ans.Reason == approval.ReasonTimedOut {
		return tools.HumanReply{TimedOut: true, Timeout: qs.o.Timeout().String()}
	}
	return replyOf(ans)
}

func replyOf(ans approval.Answer) tools.HumanReply {
	if ans.Reason == approval.ReasonClosed {
		return tools.HumanReply{Closed: true}
	}
	if !ans.Accept {
		return tools.HumanReply{Cancelled: true}
	}
	return tools.HumanReply{Reply: strings.TrimSpace(ans.Answer), Done: ans.Reason == approval.ReasonDone}
}

// recordTerminal keeps a reply given at the terminal (govibe exec) as an
// answered confirmation, as the Broker keeps the editor's, so a later
// compaction re-sends it with the user's other decisions.
func (qs *Questions) recordTerminal(ctx context.Context, sid string, q tools.HumanQuestion, r tools.HumanReply) {
	if qs.store == nil || r.TimedOut || r.Closed || q.ToolCallID == "" {
		return
	}
	payload, _ := json.Marshal(approval.Confirm{SessionID: sid, ToolCallID: q.ToolCallID, Kind: "question", Question: q.Question, Options: q.Options})
	rec, err := qs.store.CreateConfirmation(ctx, sid, store.NewConfirmation{Kind: "question", ToolCallID: q.ToolCallID, Payload: payload})
	if err == nil {
		a := approval.Answer{Accept: !r.Cancelled, Answer: r.Reply}
		st := store.ConfirmApproved
		if r.Cancelled {
			st = store.ConfirmRejected
		}
		resp, _ := json.Marshal(a)
		err = qs.store.ResolveConfirmation(ctx, rec.ID, st, resp)
	}
	if err != nil {
		qs.o.Log.Warn("recording the terminal's answer", zap.String("session", sid), zap.Error(err))
	}
}
