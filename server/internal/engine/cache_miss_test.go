package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// missModels are two profiles on the scripted endpoint; the second one's
// switch must read as "model switched".
func missSettings() config.Values {
	return config.Values{"models": []any{
		map[string]any{"name": "A", "model": "scripted-model", "contextWindow": float64(64000)},
		map[string]any{"name": "B", "model": "scripted-other", "contextWindow": float64(64000)},
	}, "model": "A", "compact.keepTokens": float64(300)}
}

// withSettings is v with over's keys replaced.
func withSettings(v, over config.Values) config.Values {
	out := config.Values{}
	for k, val := range v {
		out[k] = val
	}
	for k, val := range over {
		out[k] = val
	}
	return out
}

// lastMiss is the cache-miss cause of the session's last request.
func lastMiss(t *testing.T, x *enginetest.Env, sid string) llm.CacheMiss {
	t.Helper()
	us := x.EventsOf(sid, kinds.Usage)
	for i := len(us) - 1; i >= 0; i-- {
		if us[i].Usage != nil {
			return us[i].Usage.Miss
		}
	}
	t.Fatal("no usage event")
	return llm.CacheMiss{}
}

// Each way of breaking the prompt prefix, made through the real engine
// with the scripted model, is named with its cause on the request's usage.
func TestCacheMissCauses(t *testing.T) {
	x := enginetest.New(t, missSettings())
	x.WriteFile("a.txt", "alpha\n")
	evict := false
	x.Model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		rep := enginetest.ReplyTo(r)
		cached := int64(1900)
		if evict {
			cached = 0
		}
		rep.Usage = &scripted.Usage{PromptTokens: 2000, CompletionTokens: 10, CachedTokens: cached, CacheFields: scripted.CacheFieldsDeepSeek}
		return rep
	})
	ctx := context.Background()
	sid, _ := x.Turn("", "please read a.txt")
	x.Turn(sid, "thanks")
	if m := lastMiss(t, x, sid); m.Cause != "" {
		t.Fatalf("an append-only turn names a miss: %+v", m)
	}

	t.Run("provider evicted", func(t *testing.T) {
		evict = true
		defer func() { evict = false }()
		x.Turn(sid, "again")
		if m := lastMiss(t, x, sid); m.Cause != llm.MissEvicted || !strings.Contains(m.Detail, "0 of the 2000-token") {
			t.Fatalf("miss %+v, want %s", m, llm.MissEvicted)
		}
	})

	t.Run("message rewritten", func(t *testing.T) {
		track := x.Track(sid)
		i := -1
		for j, m := range track {
			if m.Role == llm.RoleTool {
				i = j
			}
		}
		if i < 0 {
			t.Fatal("no tool result in the track")
		}
		m := track[i]
		m.Content += "\n(refreshed)"
		if err := x.E.Store.ReplaceLLMMessages(ctx, sid, i, i+1, []llm.Message{m}); err != nil {
			t.Fatal(err)
		}
		x.Turn(sid, "after the rewrite")
		got := lastMiss(t, x, sid)
		if got.Cause != llm.MissRewritten || got.Message != i+1 || !strings.Contains(got.Detail, "tool result of read_file") {
			t.Fatalf("miss %+v, want %s of message %d (a read_file result)", got, llm.MissRewritten, i+1)
		}
		// The stored answer carries the same usage as the last usage
		// event, cause included: a reload draws the same line.
		page, err := x.E.Store.LoadMessages(ctx, sid, 0, 1)
		if err != nil || len(page.Messages) != 1 || page.Messages[0].Usage == nil {
			t.Fatalf("the last message: %+v, %v", page, err)
		}
		us := x.EventsOf(sid, kinds.Usage)
		if live, stored := *us[len(us)-1].Usage, *page.Messages[0].Usage; live.Usage != stored {
			t.Fatalf("the stored answer's usage %+v, the live one %+v", stored, live.Usage)
		}
	})

	t.Run("system prompt changed", func(t *testing.T) {
		v := x.E.Settings()
		x.E.UpdateSettings(withSettings(v, config.Values{"language": "zh-cn"}), nil)
		x.Turn(sid, "in Chinese now")
		if m := lastMiss(t, x, sid); m.Cause != llm.MissSystem || !strings.Contains(m.Detail, "Language") {
			t.Fatalf("miss %+v, want %s naming the Language section", m, llm.MissSystem)
		}
		x.E.UpdateSettings(v, nil)
		x.Turn(sid, "back")
	})

	t.Run("tool list changed", func(t *testing.T) {
		v := x.E.Settings()
		ro := missSettings()
		ro["models"].([]any)[0].(map[string]any)["toolProfile"] = "readonly"
		x.E.UpdateSettings(withSettings(v, ro), nil)
		x.Turn(sid, "read-only now")
		if m := lastMiss(t, x, sid); m.Cause != llm.MissTools || !strings.Contains(m.Detail, "-") {
			t.Fatalf("miss %+v, want %s listing the removed tools", m, llm.MissTools)
		}
		x.E.UpdateSettings(v, nil)
		x.Turn(sid, "full again")
	})

	t.Run("model switched", func(t *testing.T) {
		if err := x.E.Sessions.SetModel(ctx, sid, "B"); err != nil {
			t.Fatal(err)
		}
		x.Turn(sid, "on B")
		if m := lastMiss(t, x, sid); m.Cause != llm.MissModel || !strings.Contains(m.Detail, "→ B") {
			t.Fatalf("miss %+v, want %s to B", m, llm.MissModel)
		}
	})

	t.Run("compaction", func(t *testing.T) {
		for i := range 3 {
			x.Turn(sid, enginetest.Prose(200, uint64(i)))
		}
		if info, err := x.E.SessionCompaction.Compact(ctx, sid, "", compaction.TriggerButton); err != nil || info.Failed {
			t.Fatalf("compact: %v %+v", err, info)
		}
		x.Turn(sid, "after the compaction")
		if m := lastMiss(t, x, sid); m.Cause != llm.MissCompaction {
			t.Fatalf("miss %+v, want %s", m, llm.MissCompaction)
		}
		x.Turn(sid, "and on")
		if m := lastMiss(t, x, sid); m.Cause != "" {
			t.Fatalf("the turn after the compacted one names a miss: %+v", m)
		}
	})
}
