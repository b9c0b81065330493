package compaction_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/compact/sessioncompact"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// bigFile is a 400-line source file of about 4k tokens.
func bigFile() string {
	var b strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&b, "x%d := load(%d)\n", i, i*3)
	}
	return b.String()
}

// readThenAnswer makes the model read big.txt when asked, then answer.
func readThenAnswer(r *scripted.RecordedRequest) scripted.Reply {
	if enginetest.IsCompactionRequest(r) {
		return scripted.Reply{Text: enginetest.SnapshotReply(40)}
	}
	if kind, text := r.LatestInput(); kind == "user" && strings.Contains(text, "read big.txt") {
		return scripted.Reply{Text: "Reading it.", ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: `{"filePath":"big.txt"}`}}}
	}
	return scripted.Reply{Text: "It loads 400 values."}
}

func toolResult(t *testing.T, track []llm.Message) string {
	t.Helper()
	for _, m := range track {
		if m.Role == llm.RoleTool {
			return m.Content
		}
	}
	t.Fatal("no tool result in the track")
	return ""
}

func compactNow(t *testing.T, x *enginetest.Env, sid string) sessioncompact.Result {
	t.Helper()
	info, err := x.E.SessionCompaction.Compact(context.Background(), sid, "", compaction.TriggerCommand)
	if err != nil {
		t.Fatalf("compact: %v", err)
	}
	if info.Failed {
		t.Fatalf("compact failed: %+v", info)
	}
	return info
}

// TestOneDominantReadIsShortened is issue 16.7: keepTokens=200 and a
// session that is mostly one 400-line read. The cut cannot fall inside
// the read, so it used to be "Nothing to summarise yet"; now the read is
// shortened to its head and tail with a note on how to read the rest.
func TestOneDominantReadIsShortened(t *testing.T) {
	x := enginetest.New(t, config.Values{"compact.keepTokens": float64(200)})
	x.Model.SetHandler(readThenAnswer)
	x.WriteFile("big.txt", bigFile())
	sid, _ := x.Turn("", "read big.txt please")
	ctx := context.Background()
	system, defs := x.E.Compaction.Prefix(ctx, sid)
	est := compact.Default()
	before, trackBefore := est.Request(system, defs, x.Track(sid)), est.Messages(x.Track(sid))
	if got := est.Text(toolResult(t, x.Track(sid))); got < 3000 {
		t.Fatalf("setup: the read is only %d tokens", got)
	}
	n := len(x.Model.Requests())

	info := compactNow(t, x, sid)
	if info.Shortened <= 0 || info.SavedTokens != info.Shortened || info.Summary != "" || info.MessageID == "" {
		t.Fatalf("info %+v", info)
	}
	if len(x.Model.Requests()) != n {
		t.Fatal("shortening alone must not call the model")
	}
	res := toolResult(t, x.Track(sid))
	for _, kept := range []string{"File: big.txt", "x1 := load(3)\n", "x20 := load(60)\n", "x390 := load(1170)\n", "x400 := load(1200)"} {
		if !strings.Contains(res, kept) {
			t.Fatalf("%q of the read's head or tail was lost:\n%s", kept, res)
		}
	}
	if strings.Contains(res, "x200 := load(600)") {
		t.Fatal("the middle of the read was kept")
	}
	if !strings.Contains(res, compact.TruncatedMarker) || !strings.Contains(res, `call read_file on "big.txt" with startLine/endLine`) {
		t.Fatalf("no note on how to read it again:\n%s", res)
	}
	after := est.Request(system, defs, x.Track(sid))
	if before-after < info.Shortened-8 || est.Messages(x.Track(sid)) >= trackBefore/3 {
		t.Fatalf("context %d → %d tokens (track %d → %d), shortened %d", before, after, trackBefore, est.Messages(x.Track(sid)), info.Shortened)
	}
	if use := x.E.ContextUse(ctx, sid); use.Source != "estimate" || use.UsedTokens != int64(after) {
		t.Fatalf("context bar %+v, want the new estimate %d", use, after)
	}
	recs := x.E.Compaction.Records(ctx, sid)
	if len(recs) != 1 || recs[0].Status != "done" || recs[0].Shortened != info.Shortened || recs[0].Messages != 0 {
		t.Fatalf("records %+v", recs)
	}
	// Now it really is short: a second attempt has nothing left to do.
	if _, err := x.E.SessionCompaction.Compact(ctx, sid, "", compaction.TriggerCommand); err != compaction.ErrNothingToCompact {
		t.Fatalf("second compact: %v", err)
	}
	if v := x.Model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}

// TestDominantReadAboveTheThresholdIsShortenedAndTheRestSummarised: with
// earlier turns to summarise, a read that alone keeps the context above
// the threshold is shortened too, so automatic compaction brings the
// context below the threshold.
func TestDominantReadAboveTheThresholdIsShortenedAndTheRestSummarised(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(readThenAnswer)
	x.WriteFile("big.txt", bigFile())
	system, defs := x.E.Compaction.Prefix(context.Background(), "")
	window := int(float64(compact.Default().Request(system, defs, nil)+2500) / 0.99)
	x.Reopen(config.Values{"contextWindow": float64(window), "compact.keepTokens": float64(200), "compact.threshold": 0.99})
	sid := ""
	for i := 0; i < 4; i++ {
		sid, _ = x.Turn(sid, enginetest.Prose(150, uint64(300+i)))
	}
	if evs := x.EventsOf(sid, kinds.Compaction); len(evs) != 0 {
		t.Fatalf("setup: compacted before the read: %+v", evs[0].Payload)
	}
	sid, _ = x.Turn(sid, "read big.txt please")
	ctx := context.Background()
	system, defs = x.E.Compaction.Prefix(ctx, sid)
	pol := x.E.Compaction.Policy()
	est := compact.Default()

	evs := x.EventsOf(sid, kinds.Compaction)
	if len(evs) != 1 {
		t.Fatalf("%d compaction events, want 1", len(evs))
	}
	info := *evs[0].Divider
	if info.Trigger != compaction.TriggerAuto || info.Failed || info.Shortened <= 0 || info.Messages == 0 || info.Summary == "" {
		t.Fatalf("info %+v", info)
	}
	tr := x.Track(sid)
	if !strings.HasPrefix(tr[0].Content, compact.SummaryPrefix) {
		t.Fatal("the earlier turns were not summarised")
	}
	if !strings.Contains(toolResult(t, tr), compact.TruncatedMarker) {
		t.Fatal("the read was not shortened")
	}
	if got := est.Request(system, defs, tr); got > pol.Trigger() {
		t.Fatalf("after compaction %d tokens, still above the trigger %d", got, pol.Trigger())
	}
	if last := tr[len(tr)-1]; last.Content != "It loads 400 values." {
		t.Fatalf("the turn did not finish after compacting: %q", last.Content)
	}
	if v := x.Model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}
