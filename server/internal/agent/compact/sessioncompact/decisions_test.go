package sessioncompact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Each kind of answered confirmation reads as the decision a person made;
// answers nobody gave (timeouts, closed dialogs) are none.
func TestDecisionOfEachConfirmation(t *testing.T) {
	rec := func(c approval.Confirm, a approval.Answer) store.Confirmation {
		p, _ := json.Marshal(c)
		r, _ := json.Marshal(a)
		return store.Confirmation{Kind: c.Kind, Payload: p, Response: r}
	}
	for _, tt := range []struct {
		name string
		c    approval.Confirm
		a    approval.Answer
		want string // the decision's line, "" when it is none
	}{
		{"shell changed", approval.Confirm{Kind: "shell", Command: "go test ./..."}, approval.Answer{Accept: true, Command: "go test ./parser/"},
			"Approved after changing the command go test ./parser/"},
		{"edit rejected", approval.Confirm{Kind: "edit", RelPath: "a.go", Path: "/w/a.go"}, approval.Answer{Reason: "wrong file"},
			`Rejected the edit of a.go (reason: "wrong file")`},
		{"plan used", approval.Confirm{Kind: "question", Review: &reviewers.Card{}}, approval.Answer{Accept: true, Answer: approval.PlanUse}, "Approved the todo plan"},
		{"plan replied", approval.Confirm{Kind: "question", Review: &reviewers.Card{}}, approval.Answer{Accept: true, Answer: "split step 2"},
			`Did not accept the todo plan and replied: "split step 2"`},
		{"plan rejected", approval.Confirm{Kind: "question", Review: &reviewers.Card{}}, approval.Answer{Accept: true, Answer: approval.PlanReject}, "Rejected the todo plan"},
		{"question declined", approval.Confirm{Kind: "question", Question: "Which DB?\nmore"}, approval.Answer{}, `Asked "Which DB?", the user declined to answer`},
		{"timed out", approval.Confirm{Kind: "question", Question: "q"}, approval.Answer{Reason: approval.ReasonTimedOut}, ""},
		{"closed", approval.Confirm{Kind: "question", Question: "q"}, approval.Answer{Reason: approval.ReasonClosed}, ""},
	} {
		d, ok := decisionOf(rec(tt.c, tt.a))
		got := ""
		if ok {
			got = compact.Kept{Decisions: []compact.Decision{d}}.Render()
		}
		if (tt.want == "") != (got == "") || (tt.want != "" && !strings.Contains(got, "- "+tt.want+"\n")) {
			t.Errorf("%s: %q, want the line %q", tt.name, got, tt.want)
		}
	}
}
