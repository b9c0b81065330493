package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm/scripted"
)

func budgetReply(text string) scripted.Reply {
	return scripted.Reply{Text: text, Usage: &scripted.Usage{PromptTokens: 2000, CompletionTokens: 10, CachedTokens: 1000, CacheFields: scripted.CacheFieldsOpenAI}}
}

// In the editor the run pauses at the token budget and asks; Continue
// grants another budget's worth, Stop ends the turn with the budget
// error and no request is sent.
func TestBudgetPausesAndAsksInTheEditor(t *testing.T) {
	r := newRestartable(t, config.Values{"cost.sessionTokenBudget": float64(3000)},
		budgetReply("one"), budgetReply("two"), budgetReply("three"))
	e := r.open()
	ctx := context.Background()
	turn := func(sid, text string) (string, string) {
		t.Helper()
		sid, _, err := e.Send(ctx, SendParams{SessionID: sid, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return sid, ""
	}
	sid, _ := turn("", "first")
	if st := e.Wait(sid); st != "done" {
		t.Fatalf("turn 1 %s", st)
	}
	turn(sid, "second") // 2,010 tokens spent: under the budget
	if st := e.Wait(sid); st != "done" {
		t.Fatalf("turn 2 %s", st)
	}
	turn(sid, "third") // 4,020 spent: the pause
	c := r.confirm()
	if c.Kind != "question" || !strings.Contains(c.Question, "token budget of 3000 tokens") || len(c.Options) != 2 || c.Options[0] != "Continue" {
		t.Fatalf("pause question %+v", c)
	}
	if n := len(r.model.Requests()); n != 2 {
		t.Fatalf("%d requests sent before the answer, want 2", n)
	}
	if err := e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Continue"}); err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != "done" || len(r.model.Requests()) != 3 {
		t.Fatalf("after Continue: %s, %d requests", st, len(r.model.Requests()))
	}
	// 6,030 spent: past the second budget's worth (6,000); Stop ends it.
	turn(sid, "fourth")
	c = r.confirm()
	if !strings.Contains(c.Question, "6000 tokens") {
		t.Fatalf("second pause %q", c.Question)
	}
	if err := e.Broker.Resolve(c.ID, approval.Answer{Accept: true, Answer: "Stop"}); err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != "error" || len(r.model.Requests()) != 3 {
		t.Fatalf("after Stop: %s, %d requests", st, len(r.model.Requests()))
	}
}
