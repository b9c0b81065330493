package reviewers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// PlanVerdict is the plan reviewer's answer about one create_todo_list
// plan.
type PlanVerdict struct {
	// Accepted: the reviewer approved the plan, or the review is off
	// (then Card is nil).
	Accepted bool
	// Card is the verdict shown in the UI (already published).
	Card *Card
	// Attempt is this review's number since the last accepted plan.
	Attempt int
	// Feedback is the rejection for the model to revise, while attempts
	// are left.
	Feedback string
	// GaveUp: the reviewer rejected maxAttempts times or could not
	// answer; a human decides, and Why says why in a sentence.
	GaveUp bool
	Why    string
	// Text is the plan as the reviewer read it (JSON unless a string).
	Text string
}

// Plan checks a plan from create_todo_list against the user's request
// (govibe.todolistReview.*) and keeps the rejection count and the last
// problems in the session between calls. The error is non-nil only when
// ctx ends or the plan cannot be rendered.
func (r *Reviewers) Plan(ctx context.Context, t Target, request string, plan any) (PlanVerdict, error) {
	rs := r.SettingsOf(review.KindPlan)
	if !rs.Enabled {
		return PlanVerdict{Accepted: true}, nil
	}
	sid := t.SessionID
	st := r.PlanState(ctx, sid)
	attempt := st.Attempts + 1
	text, ok := plan.(string)
	if !ok {
		b, err := json.MarshalIndent(plan, "", "  ")
		if err != nil {
			return PlanVerdict{}, fmt.Errorf("rendering the plan: %w", err)
		}
		text = string(b)
	}
	t.Title = fmt.Sprintf("plan (attempt %d)", attempt)
	in := review.PlanInput{Request: request, Plan: text, Attempt: attempt, Previous: st.Previous}
	card := r.Run(ctx, t, review.KindPlan, in.Prompt())
	if err := ctx.Err(); err != nil {
		return PlanVerdict{}, err
	}
	out := PlanVerdict{Card: card, Attempt: attempt, Text: text}
	switch {
	case card.Unavailable == "" && card.Approved:
		r.setPlanState(ctx, sid, review.PlanReviewState{})
		out.Accepted = true
		return out, nil
	case card.Unavailable == "" && attempt < rs.Attempts:
		r.setPlanState(ctx, sid, review.PlanReviewState{Attempts: attempt, Previous: card.Problems})
		out.Feedback = fmt.Sprintf("The plan reviewer rejected this plan (attempt %d of %d). Revise the plan and call create_todo_list again.\n%s",
			attempt, rs.Attempts, card.Feedback())
		return out, nil
	}
	// The reviewer gave up or could not answer: a human decides.
	r.setPlanState(ctx, sid, review.PlanReviewState{})
	out.GaveUp = true
	out.Why = "the reviewer was not available: " + card.Unavailable
	if card.Unavailable == "" {
		out.Why = "the reviewer rejected it once"
		if attempt > 1 {
			out.Why = fmt.Sprintf("the reviewer rejected it %d times", attempt)
		}
	}
	return out, nil
}

// PlanState is the plan reviewer's rejection count and last problems in
// the session.
func (r *Reviewers) PlanState(ctx context.Context, sid string) review.PlanReviewState {
	return sessionstate.Lookup(ctx, r.store, sid, review.PlanReviewKey)
}

func (r *Reviewers) setPlanState(ctx context.Context, sid string, st review.PlanReviewState) {
	_ = sessionstate.Set(ctx, r.store, sid, review.PlanReviewKey, st)
}
