package compaction_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// twoModels are govibe.models entries: "big" with a window compaction
// never reaches in these tests, and "small" with window.
func twoModels(window int) []any {
	return []any{
		map[string]any{"name": "big", "model": "big-model", "contextWindow": float64(10_000_000)},
		map[string]any{"name": "small", "model": "small-model", "contextWindow": float64(window)},
	}
}

// TestCompactionFollowsTheCommandsModel: a custom command whose
// frontmatter names the small-window profile runs its turns on that model,
// so those turns compact against its window while the session itself is
// on the big one; the same turns typed without the command never compact.
func TestCompactionFollowsTheCommandsModel(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	small := windowFor(x, 2500)
	x.WriteFile(".govibe/commands/small.md", "---\ndescription: on the small model\nmodel: small\n---\n$ARGUMENTS\n")
	x.Close()
	x.OpenTrusted(config.Values{"model": "big", "maxOutputTokens": float64(2000), "compact.keepTokens": float64(800), "models": twoModels(small)}, true)

	compactsWithin := func(prefix string, turns int) (bool, string) {
		sid := ""
		for i := 0; i < turns; i++ {
			before := len(x.Model.Requests())
			sid, _ = x.Turn(sid, prefix+enginetest.Prose(150, uint64(i)))
			for _, r := range x.Model.Requests()[before:] {
				if enginetest.IsCompactionRequest(&r) {
					return true, r.Model
				}
			}
		}
		return false, ""
	}
	if did, _ := compactsWithin("", 8); did {
		t.Fatal("plain turns on the 10M-token model compacted")
	}
	did, model := compactsWithin("/small ", 14)
	if !did {
		t.Fatalf("no compaction in 14 turns of /small against a %d-token window", small)
	}
	if model != "small-model" {
		t.Fatalf("the summary request went to %s, want the command's small-model", model)
	}
}

// TestSummaryRequestFitsTheCompactionRolesWindow: with
// govibe.roles.compaction naming a profile whose window is smaller than
// the session model's, the summary request is cut to that window and asks
// for at most its output reserve; cut against the session model's window
// it would overflow the compaction model.
func TestSummaryRequestFitsTheCompactionRolesWindow(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	tiny := windowFor(x, 1200)
	x.Reopen(config.Values{"model": "big", "roles.compaction": "small", "compact.keepTokens": float64(400), "models": twoModels(tiny)})
	sid := enginetest.FillSession(x, 24)
	ctx := context.Background()
	est := compact.Default()
	system, defs := x.E.Compaction.Prefix(ctx, sid)
	if whole := est.Request(system, defs, x.Track(sid)); whole <= tiny {
		t.Fatalf("the session (%d tokens) must not fit the compaction model's %d-token window for this test", whole, tiny)
	}
	before := len(x.Model.Requests())
	info, err := x.E.SessionCompaction.Compact(ctx, sid, "", compaction.TriggerCommand)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	if !info.Truncated {
		t.Fatal("the summarised range was not cut to the compaction model's window")
	}
	found := false
	for _, r := range x.Model.Requests()[before:] {
		if !enginetest.IsCompactionRequest(&r) {
			continue
		}
		found = true
		pol := compact.Policy{Window: tiny, MaxOutput: 2000, Threshold: 0.7, KeepTokens: 400}.Normalized()
		if r.Model != "small-model" || r.MaxTokens != pol.Reserve() {
			t.Fatalf("summary request to %s with max_tokens %d, want small-model with %d", r.Model, r.MaxTokens, pol.Reserve())
		}
		msgs := make([]llm.Message, 0, len(r.Messages))
		for _, m := range r.Messages[1:] {
			msgs = append(msgs, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
		}
		if got := est.Request(system, defs, msgs); got > pol.RequestBudget() {
			t.Fatalf("the summary request is %d tokens, over the compaction model's budget %d", got, pol.RequestBudget())
		}
	}
	if !found {
		t.Fatal("no summary request was made")
	}
}
