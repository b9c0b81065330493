package engine_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// A turn the model never answered (here a 400) leaves no user message in
// the model track: the next turn's request has one user message, not the
// unanswered one followed by the new one. The transcript still shows it.
func TestUnansweredPromptLeavesTheModelTrack(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.Enqueue(scripted.Reply{Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"bad request"}}`)}})
	ctx := context.Background()
	sid, _, err := x.E.Send(ctx, engine.SendParams{Text: "first try"})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "error" {
		t.Fatalf("the failed turn ended %q", st)
	}
	if tr := x.Track(sid); len(tr) != 0 {
		t.Fatalf("the unanswered prompt stayed in the model track: %+v", tr)
	}
	page, err := x.E.Store.LoadMessages(ctx, sid, 0, 100)
	if err != nil || len(page.Messages) == 0 || page.Messages[0].Role != "user" {
		t.Fatalf("the transcript lost the user's message: %+v %v", page, err)
	}
	x.Model.Enqueue(scripted.Reply{Text: "hello"})
	x.Turn(sid, "second try")
	tr := x.Track(sid)
	if len(tr) != 2 || tr[0].Role != llm.RoleUser || tr[1].Role != llm.RoleAssistant {
		t.Fatalf("track after the answered turn: %+v", tr)
	}
	reqs := x.Model.Requests()
	last := reqs[len(reqs)-1]
	users := 0
	for _, m := range last.Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 1 {
		t.Fatalf("the model got %d user messages, want 1: %+v", users, last.Messages)
	}
}
