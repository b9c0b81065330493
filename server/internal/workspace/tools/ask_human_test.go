package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fakeAsker records the question and answers with reply or err.
type fakeAsker struct {
	Approver
	got   *HumanQuestion
	reply HumanReply
	err   error
}

func (f *fakeAsker) AskHuman(_ context.Context, q HumanQuestion) (HumanReply, error) {
	*f.got = q
	return f.reply, f.err
}

func runAsk(t *testing.T, approver Approver, args map[string]any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	r, err := AskHuman().Run(context.Background(), &Env{Approver: approver}, raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAskHumanOptionsAndReplies(t *testing.T) {
	var q HumanQuestion
	a := &fakeAsker{got: &q, reply: HumanReply{Reply: "postgres"}}
	r := runAsk(t, a, map[string]any{"question": "  Which database? ", "options": []string{" sqlite", "", "postgres", "sqlite "}})
	if !r.OK || r.Output != "The user replied: postgres" {
		t.Fatalf("%+v", r)
	}
	if q.Question != "Which database?" || strings.Join(q.Options, "|") != "sqlite|postgres" {
		t.Fatalf("asked %+v: options are trimmed, blanks and duplicates dropped", q)
	}
	for _, c := range []struct {
		reply HumanReply
		want  string
	}{
		{HumanReply{Reply: "x", Done: true}, "The user replied and is done with this topic: x"},
		{HumanReply{Cancelled: true}, "The user cancelled the question."},
		{HumanReply{TimedOut: true, Timeout: "30m0s"}, "No answer within 30m0s; decide yourself or stop and explain."},
	} {
		a.reply = c.reply
		if r := runAsk(t, a, map[string]any{"question": "q"}); !r.OK || r.Output != c.want {
			t.Errorf("%+v: got %+v", c.reply, r)
		}
	}
}

// Bad input gets a clear result and nobody is asked.
func TestAskHumanBadInput(t *testing.T) {
	many := make([]string, MaxHumanOptions+1)
	for i := range many {
		many[i] = strings.Repeat("o", i+1)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"question": "   "}, "non-empty question"},
		{map[string]any{"question": "pick", "options": many}, "at most 10 options"},
		{map[string]any{"question": "pick", "options": []string{strings.Repeat("x", 201)}}, "short label"},
	} {
		var q HumanQuestion
		r := runAsk(t, &fakeAsker{got: &q}, c.args)
		if r.OK || !strings.Contains(r.Output, c.want) || q.Question != "" {
			t.Errorf("%v: got %+v (asked %+v)", c.args, r, q)
		}
	}
}

// Nobody to ask: an approver without a human, or one that says so.
func TestAskHumanNoHuman(t *testing.T) {
	var q HumanQuestion
	for _, ap := range []Approver{nil, &fakeAsker{got: &q, err: ErrNoHuman}} {
		if r := runAsk(t, ap, map[string]any{"question": "q"}); r.OK || r.Output != NoHumanText {
			t.Errorf("%T: %+v", ap, r)
		}
	}
	if _, err := AskHuman().Run(context.Background(), &Env{Approver: &fakeAsker{got: &q, err: errors.New("boom")}}, json.RawMessage(`{"question":"q"}`)); err == nil {
		t.Fatal("an asker's failure must reach the run")
	}
}
