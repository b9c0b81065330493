package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/llm/scripted"
)

// TestSessionSetModel: the header's picker switches the open session from
// its next request (over an earlier /model choice), the session list shows
// the model the turn used, and bad input is refused with a reason.
func TestSessionSetModel(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply { return scripted.Reply{Text: "ok"} })
	ed := connect(t, "", model, map[string]any{"model": "fast", "models": []any{
		map[string]any{"name": "fast", "model": "fast-model"},
		map[string]any{"name": "strong", "model": "strong-model"},
	}})
	r := send(t, ed, "", "/model fast")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	if err := ed.Call("session/setModel", protocol.SessionSetModelParams{SessionID: r.SessionID, Model: "strong"}, nil); err != nil {
		t.Fatal(err)
	}
	r2 := send(t, ed, r.SessionID, "hello")
	ed.AwaitTurnFinished(r.SessionID, r2.TurnID, 10*time.Second)
	reqs := model.Requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].Model != "strong-model" {
		t.Fatalf("the request after session/setModel went to %+v", reqs)
	}
	var list protocol.SessionListResult
	if err := ed.Call("session/list", protocol.SessionListParams{}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].Model != "strong-model" {
		t.Fatalf("session list %+v", list.Sessions)
	}
	if err := ed.Call("session/setModel", protocol.SessionSetModelParams{SessionID: r.SessionID, Model: "  "}, nil); err == nil || !strings.Contains(err.Error(), "cannot be empty") {
		t.Fatalf("empty model: %v", err)
	}
	if err := ed.Call("session/setModel", protocol.SessionSetModelParams{SessionID: "nope", Model: "fast"}, nil); err == nil {
		t.Fatal("an unknown session was accepted")
	}
}
