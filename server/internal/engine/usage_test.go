package engine_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
)

func pricedModels() config.Values {
	return config.Values{"models": []any{map[string]any{"name": "Priced", "model": "scripted-model", "contextWindow": float64(64000),
		"priceInput": 2.0, "priceCachedInput": 0.5, "priceOutput": 8.0}}}
}

func TestAccountingFollowsProviderUsageForOpenAIAndDeepSeekCacheFields(t *testing.T) {
	x := enginetest.New(t, pricedModels())
	x.WriteFile("a.txt", "alpha\n")
	x.Model.Enqueue(
		scripted.Reply{Text: "one", Usage: &scripted.Usage{PromptTokens: 1000, CompletionTokens: 200, CachedTokens: 600, CacheFields: scripted.CacheFieldsOpenAI}},
		// A turn with a tool call makes two requests, DeepSeek-style fields.
		scripted.Reply{Text: "reading", ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: `{"filePath":"a.txt"}`}},
			Usage: &scripted.Usage{PromptTokens: 1500, CompletionTokens: 100, CachedTokens: 1200, CacheFields: scripted.CacheFieldsDeepSeek}},
		scripted.Reply{Text: "done", Usage: &scripted.Usage{PromptTokens: 1700, CompletionTokens: 50, CachedTokens: 1536, CacheFields: scripted.CacheFieldsDeepSeek}},
	)
	sid, _ := x.Turn("", "first")
	x.Turn(sid, "second")
	ctx := context.Background()

	cost := func(prompt, cached, completion float64) float64 {
		return ((prompt-cached)*2 + cached*0.5 + completion*8) / 1e6
	}
	s := x.E.Meter.Of(ctx, sid)
	if s.PromptTokens != 4200 || s.CachedTokens != 3336 || s.CompletionTokens != 350 || s.Requests != 3 {
		t.Fatalf("session usage %+v", s)
	}
	wantCost := cost(1000, 600, 200) + cost(1500, 1200, 100) + cost(1700, 1536, 50)
	if math.Abs(s.Cost-wantCost) > 1e-12 {
		t.Fatalf("session cost %v, want %v", s.Cost, wantCost)
	}
	t1, ok1 := engine.TurnUsageOf(x.E, ctx, sid, 1)
	t2, ok2 := engine.TurnUsageOf(x.E, ctx, sid, 2)
	if !ok1 || !ok2 || t1.PromptTokens != 1000 || t1.CachedTokens != 600 || t2.PromptTokens != 3200 || t2.CachedTokens != 2736 || t2.Requests != 2 {
		t.Fatalf("turn usage %+v / %+v", t1, t2)
	}
	if math.Abs(t2.Cost-(cost(1500, 1200, 100)+cost(1700, 1536, 50))) > 1e-12 {
		t.Fatalf("turn 2 cost %v", t2.Cost)
	}
	use := x.E.ContextUse(ctx, sid)
	if use.UsedTokens != 1750 || use.Source != usage.SourceProvider || use.WindowTokens != 64000 || use.Session.Requests != 3 {
		t.Fatalf("context use %+v", use)
	}
	fins := x.EventsOf(sid, kinds.TurnFinished)
	if len(fins) != 2 || fins[1].Usage.PromptTokens != 3200 || math.Abs(fins[1].Usage.Cost-t2.Cost) > 1e-12 {
		t.Fatalf("turnFinished usage %+v", fins)
	}
	if c, ok := fins[1].Payload.(eventdata.ContextUse); !ok || c.UsedTokens != 1750 {
		t.Fatalf("turnFinished context %+v", fins[1].Payload)
	}
	usages := x.EventsOf(sid, kinds.Usage)
	if len(usages) != 3 {
		t.Fatalf("%d usage events", len(usages))
	}
	if c, ok := usages[1].Payload.(eventdata.ContextUse); !ok || c.UsedTokens != 1600 || usages[1].Usage.CachedTokens != 1200 {
		t.Fatalf("usage event %+v", usages[1])
	}
	// Accounting survives a restart.
	x.Reopen(pricedModels())
	if again := x.E.Meter.Of(ctx, sid); again != s {
		t.Fatalf("after restart %+v, want %+v", again, s)
	}
	// The session list reads every listed session's cost in one query;
	// it must be the same figure.
	list, err := x.E.Sessions.List(ctx, 0)
	if err != nil || len(list) != 1 || list[0].ID != sid || list[0].Cost != s.Cost {
		t.Fatalf("session list %+v (%v), want %s costing %v", list, err, sid, s.Cost)
	}
}

func TestCostFromPrices(t *testing.T) {
	p := engine.Profile{Profile: llm.Profile{PriceInput: 0.27, PriceCachedInput: 0.07, PriceOutput: 1.10}}
	u := llm.Usage{PromptTokens: 2_000_000, CachedTokens: 1_500_000, CompletionTokens: 100_000}
	want := 0.5*0.27 + 1.5*0.07 + 0.1*1.10
	if got := p.Cost(u); math.Abs(got-want) > 1e-12 {
		t.Fatalf("cost %v, want %v", got, want)
	}
	// No cached price: cached tokens cost the input price.
	p.PriceCachedInput = 0
	if got := p.Cost(u); math.Abs(got-(2*0.27+0.1*1.10)) > 1e-12 {
		t.Fatalf("cost without cached price %v", got)
	}
	// Prices come from the model profile in settings.
	x := enginetest.New(t, pricedModels())
	prof := x.E.Profiles.Active()
	if prof.PriceInput != 2 || prof.PriceCachedInput != 0.5 || prof.PriceOutput != 8 {
		t.Fatalf("profile prices %+v", prof.Profile)
	}
}

func TestReloadShowsBothTracks(t *testing.T) {
	x := enginetest.New(t, config.Values{"compact.keepTokens": float64(300)})
	x.Model.SetHandler(enginetest.ReplyTo)
	sid := enginetest.FillSession(x, 6)
	ctx := context.Background()
	info, err := x.E.SessionCompaction.Compact(ctx, sid, "", compaction.TriggerButton)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	x.Turn(sid, "after the compaction")
	track := x.Track(sid)

	x.Reopen(config.Values{"compact.keepTokens": float64(300)})
	l, err := x.E.Sessions.Load(ctx, sid, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	var divider *store.Message
	for i, m := range l.Page.Messages {
		switch m.Role {
		case store.RoleUser:
			users = append(users, m.Text())
		case store.RoleEvent:
			divider = &l.Page.Messages[i]
		}
	}
	if len(users) != 7 || users[6] != "after the compaction" {
		t.Fatalf("the UI track lost messages: %d users", len(users))
	}
	if divider == nil || divider.ID != info.MessageID || divider.Parts[0].Notice.Text != info.Notice || divider.Parts[1].Text != info.Summary {
		t.Fatalf("divider %+v", divider)
	}
	if !strings.Contains(info.Notice, "Earlier messages were summarised (saved ") {
		t.Fatalf("notice %q", info.Notice)
	}
	// The divider sits where the compaction happened: after the sixth turn.
	if divider.Seq <= l.Page.Messages[11].Seq || divider.Seq >= l.Page.Messages[len(l.Page.Messages)-2].Seq {
		t.Fatalf("divider at seq %d is out of place", divider.Seq)
	}
	reloaded := x.Track(sid)
	if len(reloaded) != len(track) || !strings.HasPrefix(reloaded[0].Content, compact.SummaryPrefix) {
		t.Fatalf("model track after reload: %d messages (want %d)", len(reloaded), len(track))
	}
	recs := x.E.Compaction.Records(ctx, sid)
	if len(recs) != 1 || recs[0].MessageID != divider.ID {
		t.Fatalf("records %+v", recs)
	}
	if use := x.E.ContextUse(ctx, sid); use.UsedTokens <= 0 || use.Source != usage.SourceProvider {
		t.Fatalf("context use after reload %+v", use)
	}
}
