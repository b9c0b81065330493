package engine

import (
	"context"
	"encoding/json"
	"github.com/govibe/govibe/server/internal/review/reviewers"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/compact/compaction"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/tools"
)

// Headless, a reply typed at the terminal is one of the user's decisions
// a compaction keeps, as the editor's answers are; and the pause after an
// automatic compaction never waits for anyone.
func TestHeadlessAnswersAreKeptAndNothingPauses(t *testing.T) {
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which database?"}`}}},
		scripted.Reply{Text: "I'll use sqlite."})
	e, err := New(Options{Roots: []string{t.TempDir()}, StateDir: t.TempDir(), APIKeys: map[string]string{"": "sk-test"},
		Settings: config.Values{"apiBaseUrl": model.URL(), "model": "m", "compact.askToContinue": true},
		Headless: true, HostInfo: HostInfo{OS: "linux", Shell: "bash"},
		AskTerminal: func(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
			return tools.HumanReply{Reply: "sqlite, file in ./data"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	sid, _, err := e.Send(ctx, SendParams{Text: "set up storage"})
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != "done" {
		t.Fatalf("turn %q", st)
	}
	h := newCompactionHost(e)
	ds, omitted := h.Decisions(ctx, sid, 10)
	if len(ds) != 1 || omitted != 0 || ds[0].Kind != "question" || ds[0].Subject != "Which database?" || !ds[0].Accepted || ds[0].Answer != "sqlite, file in ./data" {
		t.Fatalf("decisions %+v (%d omitted)", ds, omitted)
	}
	if err := h.ContinueAfter(ctx, sid, "t", compaction.Info{Trigger: compaction.TriggerAuto}); err != nil {
		t.Fatalf("headless paused: %v", err)
	}
}

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
