package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
)

type planItem struct {
	Title string `json:"title"`
}

func newSession(t *testing.T, x *rv) string {
	s, err := x.e.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func TestPlanReviewRejectReviseApprove(t *testing.T) {
	x := newRV(t, config.Values{"todolistReview.enabled": true}, false, "")
	x.script(review.KindPlan, verdict(false, "no item verifies the fix with a test"), verdict(true))
	sid := newSession(t, x)
	ctx := context.Background()
	req := "fix the crash when the config file is missing"

	r1, err := reviewPlan(x.e, ctx, sid, req, []planItem{{"find the crash"}, {"fix it"}})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Accepted || r1.Attempt != 1 || !strings.Contains(r1.Feedback, "no item verifies the fix") || !strings.Contains(r1.Feedback, "attempt 1 of 5") {
		t.Fatalf("first review %+v", r1)
	}
	r2, err := reviewPlan(x.e, ctx, sid, req, []planItem{{"find the crash"}, {"fix it"}, {"add a test that loads without a config file"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r2.Accepted || r2.Attempt != 2 || r2.Card == nil || !r2.Card.Approved {
		t.Fatalf("second review %+v", r2)
	}
	reqs := x.requests(string(review.KindPlan))
	if len(reqs) != 2 {
		t.Fatalf("%d reviewer requests", len(reqs))
	}
	second := reqs[1].Messages[1].Content
	for _, want := range []string{req, "add a test that loads", "no item verifies the fix", "attempt 2"} {
		if !strings.Contains(second, want) {
			t.Errorf("second prompt lacks %q:\n%s", want, second)
		}
	}
	// An approval resets the count for the next plan.
	if st := x.e.reviewers.PlanState(ctx, sid); st.Attempts != 0 {
		t.Fatalf("state %+v", st)
	}
	if cards := x.reviewCards(sid); len(cards) != 2 || cards[0].Kind != "plan" {
		t.Fatalf("cards %+v", cards)
	}
	if kids := x.reviewerSessions(sid); len(kids) != 2 {
		t.Fatalf("%d reviewer sessions", len(kids))
	}
	x.noConfirm()
}

func TestPlanReviewAfterMaxAttemptsTheUserDecides(t *testing.T) {
	x := newRV(t, config.Values{"todolistReview.enabled": true, "todolistReview.maxAttempts": float64(2)}, false, "")
	x.script(review.KindPlan, verdict(false, "scope creep: item 3 rewrites the logger"))
	sid := newSession(t, x)
	ctx := context.Background()
	plan := `1. fix bug 2. test 3. rewrite logger`
	if r, _ := reviewPlan(x.e, ctx, sid, "fix the bug", plan); r.Accepted || r.ByUser {
		t.Fatalf("first %+v", r)
	}
	done := make(chan approval.PlanReview, 1)
	go func() {
		r, err := reviewPlan(x.e, ctx, sid, "fix the bug", plan)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	c := x.confirm()
	if c.Kind != "question" || !strings.Contains(c.Question, "rejected it 2 times") || c.Review == nil || c.Review.Approved {
		t.Fatalf("question %+v", c)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Use this plan"})
	r := <-done
	if !r.Accepted || !r.ByUser || r.Attempt != 2 {
		t.Fatalf("%+v", r)
	}
	// The user may also reject, with a reason the model gets.
	go func() {
		reviewPlan(x.e, ctx, sid, "fix the bug", plan)
		r, _ := reviewPlan(x.e, ctx, sid, "fix the bug", plan)
		done <- r
	}()
	c = x.confirm()
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "drop item 3"})
	if r := <-done; r.Accepted || !strings.Contains(r.Feedback, "drop item 3") {
		t.Fatalf("%+v", r)
	}
}

func TestPlanReviewUnavailable(t *testing.T) {
	for _, approve := range []string{"", "all"} {
		x := newRV(t, config.Values{"todolistReview.enabled": true}, true, approve)
		x.script(review.KindPlan, verdictText("LGTM"))
		sid := newSession(t, x)
		r, err := reviewPlan(x.e, context.Background(), sid, "do x", "1. x")
		if err != nil {
			t.Fatal(err)
		}
		if r.Card == nil || !strings.Contains(r.Card.Unavailable, "malformed") || !r.ByUser || r.Accepted != (approve == "all") {
			t.Fatalf("approve=%q: %+v card %+v", approve, r, r.Card)
		}
	}
	// Disabled: accepted without a call.
	x := newRV(t, nil, true, "")
	if r, _ := reviewPlan(x.e, context.Background(), newSession(t, x), "x", "1. x"); !r.Accepted || r.Card != nil {
		t.Fatalf("%+v", r)
	}
}
