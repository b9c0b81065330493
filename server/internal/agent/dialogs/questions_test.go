package dialogs

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func fixed(d time.Duration) func() time.Duration { return func() time.Duration { return d } }

// In the editor a question is a dialog on the Broker; the answer becomes
// the tool's reply.
func TestQuestionsAskInADialog(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	qs := NewQuestions(b, nil, QuestionOptions{Timeout: fixed(time.Hour)})
	out := make(chan tools.HumanReply, 1)
	go func() {
		r, _ := qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q1", Question: "Which DB?", Options: []string{"a", "b"}})
		out <- r
	}()
	c := <-cl.requested
	if c.Kind != "question" || c.SessionID != "s" || c.TurnID != "t1" || c.ToolCallID != "q1" || c.Question != "Which DB?" || len(c.Options) != 2 || c.DialogID == "" {
		t.Fatalf("asked %+v", c)
	}
	must(t, b.Resolve(c.ID, approval.Answer{Accept: true, Answer: " b ", Reason: approval.ReasonDone}))
	if r := <-out; r != (tools.HumanReply{Reply: "b", Done: true}) {
		t.Fatalf("reply %+v", r)
	}
}

// A question nobody answers within askHuman.timeoutMs is withdrawn and the
// model is told nobody answered.
func TestQuestionsTimeOut(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	qs := NewQuestions(b, st, QuestionOptions{Timeout: fixed(time.Millisecond)})
	r, err := qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q1", Question: "q"})
	if err != nil || r != (tools.HumanReply{TimedOut: true, Timeout: "1ms"}) {
		t.Fatalf("got %+v, %v", r, err)
	}
	c := <-cl.requested
	wantClosed(t, cl, c.ID, "cancelled")
	if st.get(c.ID).Status != store.ConfirmCancelled {
		t.Fatalf("recorded %v", st.get(c.ID).Status)
	}
}

// The call's own end (Stop) is not a timeout.
func TestQuestionsStoppedIsNoTimeout(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	qs := NewQuestions(b, nil, QuestionOptions{Timeout: fixed(time.Hour)})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-cl.requested; cancel() }()
	if r, err := qs.Ask(ctx, "s", "t1", tools.HumanQuestion{Question: "q"}); !errors.Is(err, context.Canceled) || r.TimedOut {
		t.Fatalf("got %+v, %v", r, err)
	}
}

// Headless, askHuman.timeoutMs holds for the terminal as well: a TTY
// nobody answers does not keep the run waiting.
func TestHeadlessQuestionTimesOutAtTheTerminal(t *testing.T) {
	asked := make(chan struct{}, 1)
	qs := NewQuestions(nil, nil, QuestionOptions{Headless: true, Timeout: fixed(100 * time.Millisecond),
		Terminal: func(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
			asked <- struct{}{}
			<-ctx.Done() // nobody at the terminal
			return tools.HumanReply{}, ctx.Err()
		}})
	r, err := qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q1", Question: "Which database?"})
	if err != nil || !r.TimedOut || r.Timeout != "100ms" {
		t.Fatalf("got %+v, %v", r, err)
	}
	select {
	case <-asked:
	default:
		t.Fatal("the terminal was not asked")
	}
}

// Headless with no terminal, nobody can answer.
func TestHeadlessWithoutATerminalHasNoHuman(t *testing.T) {
	qs := NewQuestions(nil, nil, QuestionOptions{Headless: true})
	if _, err := qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{Question: "q"}); !errors.Is(err, tools.ErrNoHuman) {
		t.Fatalf("got %v", err)
	}
}

// A reply at the terminal is recorded as an answered confirmation, so
// compaction keeps it with the user's other decisions; a timeout is none.
func TestHeadlessReplyIsRecorded(t *testing.T) {
	st := newMemStore()
	reply := tools.HumanReply{Reply: "sqlite"}
	qs := NewQuestions(nil, st, QuestionOptions{Headless: true, Timeout: fixed(time.Hour),
		Terminal: func(context.Context, tools.HumanQuestion) (tools.HumanReply, error) { return reply, nil }})
	if r, err := qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q1", Question: "Which DB?"}); err != nil || r != reply {
		t.Fatalf("got %+v, %v", r, err)
	}
	rec := st.get("c1")
	var a approval.Answer
	if rec.Kind != "question" || rec.ToolCallID != "q1" || rec.Status != store.ConfirmApproved || json.Unmarshal(rec.Response, &a) != nil || a.Answer != "sqlite" {
		t.Fatalf("recorded %+v", rec)
	}
	reply = tools.HumanReply{Cancelled: true}
	qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q2"})
	if st.get("c2").Status != store.ConfirmRejected {
		t.Fatalf("a cancel recorded as %v", st.get("c2").Status)
	}
	reply = tools.HumanReply{TimedOut: true}
	qs.Ask(context.Background(), "s", "t1", tools.HumanQuestion{ToolCallID: "q3"})
	if st.get("c3").ID != "" {
		t.Fatal("a timeout was recorded as an answer")
	}
}

// A restored ask_human question keeps its deadline from when it was first
// asked: past it, the resumed run is told nobody answered.
func TestRestoredQuestionExpiresFromWhenItWasAsked(t *testing.T) {
	st := newMemStore()
	b, cl := newBroker(t, st, nil)
	qs := NewQuestions(b, st, QuestionOptions{Timeout: fixed(time.Minute)})
	rec, _ := st.CreateConfirmation(context.Background(), "s", store.NewConfirmation{Kind: "question", ToolCallID: "q1"})
	c := approval.Confirm{ID: rec.ID, SessionID: "s", ToolCallID: "q1", Kind: "question"}
	got := make(chan tools.HumanReply, 1)
	b.Restore(c, func(a approval.Answer) { got <- qs.ReplyOf(a) })
	<-cl.requested
	qs.ExpireRestored(c, []llm.ToolCall{{ID: "other", Name: "read_file"}, {ID: "q1", Name: "ask_human"}}, time.Now().Add(-2*time.Minute))
	if r := <-got; r != (tools.HumanReply{TimedOut: true, Timeout: "1m0s"}) {
		t.Fatalf("resumed with %+v", r)
	}
	if st.get(rec.ID).Status != store.ConfirmCancelled {
		t.Fatalf("recorded %v", st.get(rec.ID).Status)
	}
}

// The plan question of create_todo_list expires the same way.
func TestRestoredPlanQuestionExpires(t *testing.T) {
	b, cl := newBroker(t, newMemStore(), nil)
	qs := NewQuestions(b, nil, QuestionOptions{Timeout: fixed(time.Minute)})
	c := approval.Confirm{ID: "p1", SessionID: "s", ToolCallID: "t1", Kind: "question"}
	got := make(chan approval.Answer, 1)
	b.Restore(c, func(a approval.Answer) { got <- a })
	<-cl.requested
	qs.ExpireRestored(c, []llm.ToolCall{{ID: "t1", Name: scheduler.ToolCreateTodo}}, time.Now().Add(-time.Hour))
	if a := <-got; a.Reason != approval.ReasonTimedOut {
		t.Fatalf("got %+v", a)
	}
}

// An answer maps to the tool's reply.
func TestReplyOf(t *testing.T) {
	qs := NewQuestions(nil, nil, QuestionOptions{Timeout: fixed(90 * time.Second)})
	for _, tt := range []struct {
		a    approval.Answer
		want tools.HumanReply
	}{
		{approval.Answer{Accept: true, Answer: " yes "}, tools.HumanReply{Reply: "yes"}},
		{approval.Answer{Accept: true, Answer: "ok", Reason: approval.ReasonDone}, tools.HumanReply{Reply: "ok", Done: true}},
		{approval.Answer{Reason: "not now"}, tools.HumanReply{Cancelled: true}},
		{approval.Answer{Reason: approval.ReasonClosed}, tools.HumanReply{Closed: true}},
		{approval.Answer{Reason: approval.ReasonTimedOut}, tools.HumanReply{TimedOut: true, Timeout: "1m30s"}},
	} {
		if got := qs.ReplyOf(tt.a); got != tt.want {
			t.Errorf("%+v: %+v, want %+v", tt.a, got, tt.want)
		}
	}
}
