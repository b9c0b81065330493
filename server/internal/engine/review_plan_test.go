package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/review"
	"github.com/govibe/govibe/server/internal/scheduler"
)

type planItem struct {
	Title string `json:"title"`
}

func newSession(t *testing.T, x *rv) string {
	s, err := x.e.CreateSession(context.Background(), "")
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

	r1, err := x.e.ReviewPlan(ctx, sid, req, []planItem{{"find the crash"}, {"fix it"}})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Accepted || r1.Attempt != 1 || !strings.Contains(r1.Feedback, "no item verifies the fix") || !strings.Contains(r1.Feedback, "attempt 1 of 5") {
		t.Fatalf("first review %+v", r1)
	}
	r2, err := x.e.ReviewPlan(ctx, sid, req, []planItem{{"find the crash"}, {"fix it"}, {"add a test that loads without a config file"}})
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
	if st := x.e.planState(ctx, sid); st.Attempts != 0 {
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
	if r, _ := x.e.ReviewPlan(ctx, sid, "fix the bug", plan); r.Accepted || r.ByUser {
		t.Fatalf("first %+v", r)
	}
	done := make(chan PlanReview, 1)
	go func() {
		r, err := x.e.ReviewPlan(ctx, sid, "fix the bug", plan)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	c := x.confirm()
	if c.Kind != "question" || !strings.Contains(c.Question, "rejected it 2 times") || c.Review == nil || c.Review.Approved {
		t.Fatalf("question %+v", c)
	}
	x.e.Broker.Resolve(c.ID, Answer{Accept: true, Answer: planUse})
	r := <-done
	if !r.Accepted || !r.ByUser || r.Attempt != 2 {
		t.Fatalf("%+v", r)
	}
	// The user may also reject, with a reason the model gets.
	go func() {
		x.e.ReviewPlan(ctx, sid, "fix the bug", plan)
		r, _ := x.e.ReviewPlan(ctx, sid, "fix the bug", plan)
		done <- r
	}()
	c = x.confirm()
	x.e.Broker.Resolve(c.ID, Answer{Accept: false, Reason: "drop item 3"})
	if r := <-done; r.Accepted || !strings.Contains(r.Feedback, "drop item 3") {
		t.Fatalf("%+v", r)
	}
}

func TestPlanReviewUnavailable(t *testing.T) {
	for _, approve := range []string{"", "all"} {
		x := newRV(t, config.Values{"todolistReview.enabled": true}, true, approve)
		x.script(review.KindPlan, verdictText("LGTM"))
		sid := newSession(t, x)
		r, err := x.e.ReviewPlan(context.Background(), sid, "do x", "1. x")
		if err != nil {
			t.Fatal(err)
		}
		if r.Card == nil || !strings.Contains(r.Card.Unavailable, "malformed") || !r.ByUser || r.Accepted != (approve == "all") {
			t.Fatalf("approve=%q: %+v card %+v", approve, r, r.Card)
		}
	}
	// Disabled: accepted without a call.
	x := newRV(t, nil, true, "")
	if r, _ := x.e.ReviewPlan(context.Background(), newSession(t, x), "x", "1. x"); !r.Accepted || r.Card != nil {
		t.Fatalf("%+v", r)
	}
}

// The user's card lists the plan's goal and items, not the reviewer's JSON.
func TestPlanForPeople(t *testing.T) {
	a := scheduler.CreateArgs{Goal: "Fix Add", Items: []scheduler.Item{{Title: "Read calc.go"}, {Title: "Fix it", Description: "swap - for +"}}}
	got := planForPeople(a, `{"Goal":"Fix Add"}`)
	want := "**Fix Add**\n\n1. Read calc.go\n2. Fix it\n   swap - for +\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := planForPeople("1. a 2. b", "1. a 2. b"); got != "1. a 2. b" {
		t.Fatalf("a text plan changed: %q", got)
	}
	if got := planForPeople(map[string]int{"x": 1}, `{"x":1}`); got != "```json\n{\"x\":1}\n```" {
		t.Fatalf("other plans: %q", got)
	}
}

// Only the choice "Use this plan" accepts: a typed reply (Send or Done) is
// the user's answer and reaches the model as feedback, never as approval.
func TestPlanByUser(t *testing.T) {
	cases := []struct {
		name     string
		ans      Answer
		accepted bool
		feedback string
	}{
		{"use", Answer{Accept: true, Answer: planUse}, true, ""},
		{"use with spaces", Answer{Accept: true, Answer: " " + planUse + "\n"}, true, ""},
		{"typed", Answer{Accept: true, Answer: "split item 2 first"}, false, "did not accept the plan as it is and replied: split item 2 first"},
		{"typed with done", Answer{Accept: true, Answer: "looks risky", Reason: ReasonDone}, false, "replied: looks risky"},
		{"done with nothing typed", Answer{Accept: true, Reason: ReasonDone}, false, "The user rejected the plan."},
		{"empty accept", Answer{Accept: true}, false, "The user rejected the plan."},
		{"reject choice", Answer{Accept: true, Answer: planReject}, false, "The user rejected the plan."},
		{"cancel", Answer{Accept: false}, false, "The user rejected the plan."},
		{"cancel with reason", Answer{Accept: false, Reason: "too big"}, false, "The user's reason: too big"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := planByUser(PlanReview{ByUser: true}, c.ans)
			if r.Accepted != c.accepted || !strings.Contains(r.Feedback, c.feedback) || c.accepted && r.Feedback != "" {
				t.Fatalf("%+v gave %+v", c.ans, r)
			}
		})
	}
}
