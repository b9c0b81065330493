package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// TestToolDurationLeavesOutTheDecision: an edit the person took a while to
// accept shows how long it ran, not how long its card waited. The wait is
// the quantity under test, so the answer is given after a real delay.
func TestToolDurationLeavesOutTheDecision(t *testing.T) {
	const decision = 1200 * time.Millisecond
	r := newRestartable(t, nil,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "e1", Name: "edit", Arguments: `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`}}},
		scripted.Reply{Text: "done"})
	if err := os.WriteFile(filepath.Join(r.ws, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := r.open()
	ctx := context.Background()
	results := make(chan Event, 8)
	e.Bus.Subscribe(func(ev Event) {
		if ev.Kind == kinds.ToolResult {
			results <- ev
		}
	})
	sid, _, err := e.Send(ctx, SendParams{Text: "shout"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.confirm()
	answered := make(chan error, 1)
	time.AfterFunc(decision, func() { answered <- e.Broker.Resolve(asked.ID, approval.Answer{Accept: true}) })
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != agent.StatusDone {
		t.Fatalf("turn %s", st)
	}
	<-results // read_file
	ev := <-results
	if !ev.Tool.OK || ev.Tool.DurationMs >= decision.Milliseconds() {
		t.Fatalf("the edit's result: ok %v, %d ms (the decision alone took %d ms)", ev.Tool.OK, ev.Tool.DurationMs, decision.Milliseconds())
	}
	// The stored result, which a reload shows, says the same.
	l, err := e.Sessions.Load(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range l.Page.Messages {
		for _, p := range m.Parts {
			if p.Kind == store.PartToolResult && p.ToolResult.DurationMs >= decision.Milliseconds() {
				t.Fatalf("stored duration %d ms includes the decision", p.ToolResult.DurationMs)
			}
		}
	}
}
