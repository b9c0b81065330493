package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
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

// TestModelSwitchUpdatesTheContextWindowAtOnce: the header's meter shows
// the new model's window as soon as the model is switched (picker or
// /model), not from the next turn, naming the session's own choice;
// session/load agrees.
func TestModelSwitchUpdatesTheContextWindowAtOnce(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply { return scripted.Reply{Text: "ok"} })
	ed := connect(t, "", model, map[string]any{"model": "small", "models": []any{
		map[string]any{"name": "small", "model": "small-model", "contextWindow": 32000},
		map[string]any{"name": "large", "model": "large-model", "contextWindow": 200000},
	}})
	r := send(t, ed, "", "hello")
	fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	if fin.Context == nil || fin.Context.WindowTokens != 32000 || fin.Context.Profile != "" {
		t.Fatalf("first turn's context = %+v, want the small model's 32000 and no choice of its own", fin.Context)
	}
	used := fin.Context.UsedTokens
	windowEvent := func(want int64) *protocol.ChatEvent {
		var got *protocol.ChatEvent
		ed.Await("the context window after the switch", 10*time.Second, func(ed *fakeeditor.Editor) bool {
			evs := ed.Events(r.SessionID)
			for i := len(evs) - 1; i >= 0; i-- {
				if evs[i].Context != nil {
					if evs[i].Context.WindowTokens == want {
						got = &evs[i]
						return true
					}
					return false
				}
			}
			return false
		})
		return got
	}
	if err := ed.Call("session/setModel", protocol.SessionSetModelParams{SessionID: r.SessionID, Model: "large"}, nil); err != nil {
		t.Fatal(err)
	}
	ev := windowEvent(200000)
	if ev.Context.UsedTokens != used || ev.Context.Profile != "large" {
		t.Errorf("after the switch: %d tokens in use (was %d), profile %q (want large)", ev.Context.UsedTokens, used, ev.Context.Profile)
	}
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	if load.Context == nil || load.Context.WindowTokens != 200000 || load.Context.Profile != "large" {
		t.Fatalf("session/load context after the switch = %+v", load.Context)
	}
	// /model back to the small one: its answer carries the small window.
	r2 := send(t, ed, r.SessionID, "/model small")
	if fin := ed.AwaitTurnFinished(r.SessionID, r2.TurnID, 10*time.Second); fin.Context == nil || fin.Context.WindowTokens != 32000 || fin.Context.Profile != "small" {
		t.Fatalf("/model small answered with context %+v", fin.Context)
	}
	if n := len(model.Requests()); n != 1 {
		t.Errorf("switching models made %d model requests, want only the first turn's", n)
	}
}
