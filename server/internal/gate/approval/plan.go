package approval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// PlanReview is the outcome of ReviewPlan.
type PlanReview struct {
	// Accepted means the plan may be used: the reviewer approved it, the
	// review is disabled, or the user accepted it.
	Accepted bool
	// Card is the verdict shown in the UI (already published); nil when
	// the review is disabled.
	Card *reviewers.Card
	// Feedback is for the model: when the plan was not accepted, what to
	// fix, why it was refused, or the user's typed reply to the plan
	// question (which never accepts the plan).
	Feedback string
	// Attempt is this review's number since the last accepted plan.
	Attempt int
	// ByUser says the user (or the headless policy) decided, after the
	// reviewer rejected maxAttempts times or was unavailable.
	ByUser bool
}

// ReviewPlan checks a plan from create_todo_list against the user's
// request (govibe.todolistReview.*). A rejection returns Feedback for the
// model to revise; after maxAttempts rejections, or when the reviewer is
// unavailable, the user decides (headless: accepted only under
// --approve all). The error is non-nil only when ctx ends.
//
// plan is rendered as JSON unless it is a string. Call it from the tool's
// goroutine: the tool call id in ctx (tools.CallID) ties the question to
// the call.
func (e *Approvals) ReviewPlan(ctx context.Context, rt reviewers.Target, userRequest string, plan any) (PlanReview, error) {
	if ans, ok := resumedAnswer(ctx); ok {
		// The review ran before a restart and left the user this plan's
		// question, answered now (or timed out): the answer decides, as
		// it would have.
		if ans.Reason == ReasonTimedOut {
			return e.planTimedOut(PlanReview{ByUser: true}), nil
		}
		return planByUser(PlanReview{ByUser: true}, ans), nil
	}
	sessionID := rt.SessionID
	v, err := e.reviewers.Plan(ctx, rt, userRequest, plan)
	if err != nil {
		return PlanReview{}, err
	}
	out := PlanReview{Accepted: v.Accepted, Card: v.Card, Feedback: v.Feedback, Attempt: v.Attempt}
	if !v.GaveUp {
		return out, nil
	}
	// The reviewer gave up or could not answer: a human decides.
	card, why := v.Card, v.Why
	out.ByUser = true
	q := "Use this plan anyway? " + strings.ToUpper(why[:1]) + why[1:] + "."
	if fb := card.Feedback(); card.Unavailable == "" && fb != "" {
		q += "\n" + fb
	}
	if e.opts.Headless {
		return e.headlessPlan(ctx, rt, out, why, q+"\n\nPlan:\n"+planForPeople(plan, v.Text))
	}
	// The question waits as long as ask_human's (askHuman.timeoutMs): a
	// forgotten question must not hold the run forever.
	wctx, cancel := context.WithTimeoutCause(ctx, e.QuestionTimeout(), errQuestionTimeout)
	defer cancel()
	ans, err := e.host.Ask(wctx, Confirm{SessionID: sessionID, TurnID: rt.TurnID, ToolCallID: tools.CallID(ctx), Kind: "question",
		Question: q + "\n\nPlan:\n" + planForPeople(plan, v.Text), Options: []string{planUse, planReject}, Review: card})
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(wctx), errQuestionTimeout) {
			return e.planTimedOut(out), nil
		}
		return PlanReview{}, err
	}
	return planByUser(out, ans), nil
}

// DefaultQuestionTimeout is how long a question to the user (ask_human,
// the plan question) waits when askHuman.timeoutMs is unset: long enough
// to step away, short enough that a forgotten run ends.
const DefaultQuestionTimeout = 30 * time.Minute

// ReasonTimedOut is the Answer.Reason of a question restored after a
// restart whose time ran out (never sent by a client: the engine's expiry
// makes it).
const ReasonTimedOut = "\x00timeout"

// ReasonClosed is the Answer.Reason of an ask_human follow-up whose dialog
// the user closed before seeing it (never sent by a client: the dialogs
// Broker makes it).
const ReasonClosed = "\x00closed"

var errQuestionTimeout = errors.New("the question to the user timed out")

// QuestionTimeout is askHuman.timeoutMs, which bounds every question to
// the user.
func (e *Approvals) QuestionTimeout() time.Duration {
	if ms := e.host.Settings().AskHuman.TimeoutMs; ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return DefaultQuestionTimeout
}

// planTimedOut: nobody answered the plan question in time, so the plan is
// not used and the model decides how to go on.
func (e *Approvals) planTimedOut(out PlanReview) PlanReview {
	out.Accepted = false
	out.Feedback = "The plan was not accepted: nobody answered the question whether to use it within " + e.QuestionTimeout().String() +
		". Continue without a todo list, or stop and explain."
	return out
}

// ReasonDone is the Reason of an ask_human answer that ends the topic
// (Done); on the plan question, Done with nothing typed refuses the plan.
const ReasonDone = "done"

// planUse and planReject are the choices of the plan question.
const (
	planUse    = "Use this plan"
	planReject = "Reject it"
)

// PlanUse and PlanReject are the plan question's choices as an answer
// carries them (compaction words the user's answer from them).
const (
	PlanUse    = planUse
	PlanReject = planReject
)

// planByUser applies the user's answer to the plan question. Only the
// choice "Use this plan" accepts it: a typed reply is the user's answer
// (feedback on the plan, a question back), never an approval, so the
// model gets it as the reason the plan was not taken and revises. "Reject
// it", Cancel, and Done with nothing typed refuse it.
func planByUser(out PlanReview, ans Answer) PlanReview {
	note := strings.TrimSpace(ans.Answer)
	switch {
	case ans.Accept && note == planUse:
		out.Accepted = true
	case ans.Accept && note != "" && note != planReject:
		out.Feedback = "The user did not accept the plan as it is and replied: " + note +
			"\nTake the reply into account: revise the plan and call create_todo_list again, or answer the user."
	default:
		out.Feedback = "The user rejected the plan."
		if r := strings.TrimSpace(firstNonEmpty(ans.Reason, note)); r != "" && r != planReject && r != ReasonDone {
			out.Feedback += " The user's reason: " + r
		}
	}
	return out
}

// planForPeople is the plan as the user's question card shows it: the goal
// and a numbered list of items in Markdown, not the JSON the reviewer
// reads (which would render as one run-on paragraph).
func planForPeople(plan any, text string) string {
	a, ok := plan.(scheduler.CreateArgs)
	if !ok {
		if _, isText := plan.(string); isText {
			return text
		}
		return "```json\n" + text + "\n```"
	}
	var b strings.Builder
	if a.Goal != "" {
		b.WriteString("**" + a.Goal + "**\n\n")
	}
	for i, it := range a.Items {
		fmt.Fprintf(&b, "%d. %s\n", i+1, it.Title)
		if it.Description != "" {
			b.WriteString("   " + strings.ReplaceAll(it.Description, "\n", " ") + "\n")
		}
	}
	return b.String()
}
