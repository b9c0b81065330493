package integration

import (
	"math"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestCostSurvivesReload: the cost turnFinished carries is kept with the
// message's usage (session/load) and in the history entry (session/list),
// priced when the request was made.
func TestCostSurvivesReload(t *testing.T) {
	model := scripted.Start(t, scripted.Reply{Text: "hi", Usage: &scripted.Usage{PromptTokens: 1000, CompletionTokens: 500}})
	ed := connect(t, "", model, map[string]any{"models": []any{map[string]any{"name": "scripted-model", "model": "scripted-model", "priceInput": 2, "priceOutput": 4}}})
	r := send(t, ed, "", "hello")
	fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	want := (1000*2 + 500*4) / 1e6
	if fin.Usage == nil || math.Abs(fin.Usage.Cost-want) > 1e-12 {
		t.Fatalf("turnFinished usage %+v, want cost %v", fin.Usage, want)
	}
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	var got float64
	for _, m := range load.Messages {
		if m.Role == "assistant" && m.Usage != nil {
			got += m.Usage.Cost
		}
	}
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("session/load message cost %v, want %v", got, want)
	}
	var list protocol.SessionListResult
	if err := ed.Call("session/list", protocol.SessionListParams{}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || math.Abs(list.Sessions[0].Cost-want) > 1e-12 {
		t.Fatalf("session/list %+v", list.Sessions)
	}
}
