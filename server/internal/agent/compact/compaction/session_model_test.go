package compaction_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
)

// TestCompactionFollowsTheSessionsModel: a session switched to a model
// with a small window (the header's picker, /model) compacts against that
// window, and its summary request goes to that model; govibe.model's
// large window does not delay it until the provider refuses the request.
func TestCompactionFollowsTheSessionsModel(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	small := windowFor(x, 2500)
	x.Reopen(config.Values{"model": "big", "compact.keepTokens": float64(800), "models": []any{
		map[string]any{"name": "big", "model": "big-model", "contextWindow": float64(10_000_000)},
		map[string]any{"name": "small", "model": "small-model", "contextWindow": float64(small)},
	}})
	sid, _ := x.Turn("", enginetest.Prose(150, 0))
	if err := x.E.Sessions.SetModel(context.Background(), sid, "small"); err != nil {
		t.Fatal(err)
	}
	if use := x.E.ContextUse(context.Background(), sid); use.WindowTokens != int64(small) {
		t.Fatalf("the meter shows a %d window, want the session's %d", use.WindowTokens, small)
	}
	for i := 1; i < 14; i++ {
		before := len(x.Model.Requests())
		x.Turn(sid, enginetest.Prose(150, uint64(i)))
		for _, r := range x.Model.Requests()[before:] {
			if !enginetest.IsCompactionRequest(&r) {
				if r.Model != "small-model" {
					t.Fatalf("turn %d went to %s", i, r.Model)
				}
				continue
			}
			if r.Model != "small-model" {
				t.Fatalf("the summary request went to %s, want the session's small-model", r.Model)
			}
			return
		}
	}
	t.Fatalf("no compaction in 14 turns against a %d-token window", small)
}
