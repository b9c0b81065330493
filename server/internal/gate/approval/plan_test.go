package approval

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

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

// A headless run asks the terminal when it has one, whatever --approve
// says; without one, only --approve all uses the plan.
func TestDecideHeadlessPlan(t *testing.T) {
	for _, c := range []struct {
		approve  string
		terminal bool
		want     headlessPlanPath
	}{
		{"none", true, planAskTerminal},
		{"edits", true, planAskTerminal},
		{"all", true, planAskTerminal},
		{"all", false, planFlagAccepts},
		{"edits", false, planFlagRefuses},
		{"none", false, planFlagRefuses},
		{"", false, planFlagRefuses},
	} {
		if got := decideHeadlessPlan(c.approve, c.terminal); got != c.want {
			t.Errorf("decideHeadlessPlan(%q, terminal=%v) = %v, want %v", c.approve, c.terminal, got, c.want)
		}
	}
}

// A terminal's reply means what the dialog's would: a choice's line is
// Send, "/done" Done, an empty line Cancel.
func TestTerminalAnswer(t *testing.T) {
	for _, c := range []struct {
		r        tools.HumanReply
		accepted bool
	}{
		{tools.HumanReply{Reply: planUse}, true},
		{tools.HumanReply{Reply: planUse, Done: true}, true},
		{tools.HumanReply{Reply: planReject}, false},
		{tools.HumanReply{Reply: "add a test first"}, false},
		{tools.HumanReply{Cancelled: true}, false},
		{tools.HumanReply{Done: true}, false},
	} {
		if got := planByUser(PlanReview{ByUser: true}, terminalAnswer(c.r)); got.Accepted != c.accepted {
			t.Errorf("%+v: accepted %v, want %v (%s)", c.r, got.Accepted, c.accepted, got.Feedback)
		}
	}
}
