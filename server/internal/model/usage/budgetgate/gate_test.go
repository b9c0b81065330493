package budgetgate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func budgetReply(text string) scripted.Reply {
	return scripted.Reply{Text: text, Usage: &scripted.Usage{PromptTokens: 2000, CompletionTokens: 10, CachedTokens: 1000, CacheFields: scripted.CacheFieldsOpenAI}}
}

// In the editor the run pauses at the token budget and asks; Continue
// grants another budget's worth, Stop ends the turn with the budget
// error and no request is sent.
func TestBudgetPausesAndAsksInTheEditor(t *testing.T) {
	r := newEditor(t, config.Values{"cost.sessionTokenBudget": float64(3000)},
		budgetReply("one"), budgetReply("two"), budgetReply("three"))
	e := r.e
	ctx := context.Background()
	turn := func(sid, text string) (string, string) {
		t.Helper()
		sid, _, err := e.Send(ctx, engine.SendParams{SessionID: sid, Text: text})
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

// editor is an engine whose confirmations go to the test, as the editor's
// go to a person, on a scripted model.
type editor struct {
	t        *testing.T
	e        *engine.Engine
	model    *scripted.Server
	confirms chan approval.Confirm
}

func newEditor(t *testing.T, settings config.Values, replies ...scripted.Reply) *editor {
	t.Helper()
	r := &editor{t: t, model: scripted.Start(t, replies...), confirms: make(chan approval.Confirm, 8)}
	v := config.Values{"apiBaseUrl": r.model.URL(), "model": "m", "snapshots.enabled": false, "confirmChanges": true}
	for k, x := range settings {
		v[k] = x
	}
	e, err := engine.New(engine.Options{Roots: []string{t.TempDir()}, StateDir: t.TempDir(), Settings: v, APIKeys: map[string]string{"": "sk-test"},
		HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}, OnConfirm: func(c approval.Confirm) { r.confirms <- c }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	r.e = e
	return r
}

func (r *editor) confirm() approval.Confirm {
	r.t.Helper()
	select {
	case c := <-r.confirms:
		return c
	case <-time.After(20 * time.Second):
		r.t.Fatal("no confirmation asked")
		return approval.Confirm{}
	}
}
