package budgetgate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Headless there is no one to ask: at the money budget the turn ends
// with the budget error (code "budget", what exec turns into exit code
// 3) and the request is not sent.
func TestBudgetStopsHeadlessRuns(t *testing.T) {
	// Input 2, cached 0.5, output 8 per million.
	settings := config.Values{"models": []any{map[string]any{"name": "Priced", "model": "scripted-model", "contextWindow": float64(64000),
		"priceInput": 2.0, "priceCachedInput": 0.5, "priceOutput": 8.0}}}
	settings["model"] = "Priced"
	settings["cost.sessionBudget"] = 0.005
	x := enginetest.New(t, settings)
	x.Model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply {
		return scripted.Reply{Text: "ok", Usage: &scripted.Usage{PromptTokens: 2000, CompletionTokens: 10, CachedTokens: 1000, CacheFields: scripted.CacheFieldsOpenAI}}
	})
	// Each request costs (1000*2 + 1000*0.5 + 10*8)/1e6 = 0.00258.
	sid, _ := x.Turn("", "one")
	x.Turn(sid, "two")
	ctx := context.Background()
	_, tid, err := x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "three"})
	if err != nil {
		t.Fatal(err)
	}
	if st := x.E.Wait(sid); st != "error" {
		t.Fatalf("turn over budget ended %q", st)
	}
	if n := len(x.Model.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2 (none over the budget)", n)
	}
	x.Await("budget error", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.Error) {
			if ev.TurnID == tid && ev.Err != nil && ev.Err.Code == "budget" &&
				strings.Contains(ev.Err.Message, "cost budget of 0.0050") && strings.Contains(ev.Err.Message, "spent 0.0052") {
				return true
			}
		}
		return false
	})
}
