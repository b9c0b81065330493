package engine_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// A Retry replaces the failed attempt: after it the transcript holds the
// message once, with the retry's answer, and a reload shows no failed
// attempt (nor its error) above it. An earlier turn stays.
func TestRetryReplacesTheFailedAttempt(t *testing.T) {
	x := enginetest.New(t, nil)
	ctx := context.Background()
	x.Model.Enqueue(scripted.Reply{Text: "hi"})
	sid, _ := x.Turn("", "hello")
	// A faulted reply stays queued for the next attempt: two refusals,
	// then the answer.
	refused := scripted.StatusFault(400, `{"error":{"message":"refused"}}`)
	x.Model.Enqueue(scripted.Reply{Text: "the answer", Faults: []scripted.Fault{refused, refused}})
	_, failed, err := x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "flaky question"})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "error" {
		t.Fatalf("the first attempt ended %q", st)
	}
	// The first retry fails too; the second retries that one.
	_, again, err := x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "flaky question", RetryOf: failed})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "error" {
		t.Fatalf("the first retry ended %q", st)
	}
	_, _, err = x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "flaky question", RetryOf: again})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "done" {
		t.Fatalf("the retry ended %q", st)
	}
	l, err := x.E.Sessions.Load(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range l.Page.Messages {
		got = append(got, string(m.Role)+":"+m.Text()+":"+string(m.Status))
	}
	want := []string{"user:hello:done", "assistant:hi:done", "user:flaky question:done", "assistant:the answer:done"}
	if len(got) != len(want) {
		t.Fatalf("transcript after two retries:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("transcript after two retries:\n%q\nwant\n%q", got, want)
		}
	}
	// A RetryOf naming a turn of another session, or nothing real, hides nothing.
	x.Model.Enqueue(scripted.Reply{Text: "there"})
	other, otherTurn := x.Turn("", "elsewhere")
	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	_, _, err = x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "next", RetryOf: otherTurn})
	if err != nil {
		t.Fatal(err)
	}
	x.E.Wait(sid)
	lo, _ := x.E.Sessions.Load(ctx, other, 0, 0)
	if len(lo.Page.Messages) != 2 {
		t.Fatalf("a retry in one session hid another session's turn: %d messages left", len(lo.Page.Messages))
	}
}
