package approval

import (
	"context"
	"errors"

	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A headless run (govibe exec) meets the plan question too, when the plan
// reviewer gives up. Like ask_human, it is asked where a person can
// answer: on the terminal when stdin is one (the question on stderr, the
// answer a line of stdin). Only without a terminal does --approve decide:
// all uses the plan, anything else does not. Either way a line says
// which happened.

// headlessPlanPath is how a headless run decides the plan question.
type headlessPlanPath int

const (
	planAskTerminal headlessPlanPath = iota // a person at the terminal decides
	planFlagAccepts                         // no terminal; --approve all uses the plan
	planFlagRefuses                         // no terminal; other --approve values do not
)

// decideHeadlessPlan: the terminal first, then the flag.
func decideHeadlessPlan(approve string, terminal bool) headlessPlanPath {
	switch {
	case terminal:
		return planAskTerminal
	case approve == "all":
		return planFlagAccepts
	default:
		return planFlagRefuses
	}
}

// headlessPlan decides the plan question of a headless run: question is
// the question with the plan, why what the reviewer said.
func (e *Approvals) headlessPlan(ctx context.Context, rt reviewers.Target, out PlanReview, why, question string) (PlanReview, error) {
	switch decideHeadlessPlan(e.opts.Approve, e.opts.AskTerminal != nil) {
	case planFlagAccepts:
		e.host.Notice(rt.SessionID, rt.TurnID, "warn", e.host.Tr("The plan reviewer did not approve this plan, and no terminal can ask you: --approve all uses it."))
		out.Accepted = true
		return out, nil
	case planFlagRefuses:
		e.host.Notice(rt.SessionID, rt.TurnID, "warn", e.host.Tr("The plan reviewer did not approve this plan, and no terminal can ask you: it is not used (--approve all would use it)."))
		out.Feedback = "The plan was not accepted: " + why + ", and this headless run cannot ask the user (use --approve all). Continue without a todo list.\n" + out.Card.Feedback()
		return out, nil
	}
	wctx, cancel := context.WithTimeoutCause(ctx, e.QuestionTimeout(), errQuestionTimeout)
	defer cancel()
	r, err := e.opts.AskTerminal(wctx, tools.HumanQuestion{ToolCallID: tools.CallID(ctx), Question: question,
		Options: []string{planUse, planReject},
		Header:  e.host.Tr("The plan reviewer did not approve this plan, so you decide here (--approve does not, with a terminal to ask):")})
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(wctx), errQuestionTimeout) {
			return e.planTimedOut(out), nil
		}
		return PlanReview{}, err
	}
	return planByUser(out, terminalAnswer(r)), nil
}

// terminalAnswer is a terminal's reply as the dialog's answer: a line is
// Send (Done with "/done"), an empty line or EOF Cancel.
func terminalAnswer(r tools.HumanReply) Answer {
	if r.Cancelled || r.Closed || r.TimedOut {
		return Answer{}
	}
	a := Answer{Accept: true, Answer: r.Reply}
	if r.Done {
		a.Reason = ReasonDone
	}
	return a
}
