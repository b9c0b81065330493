package compaction_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// windowFor sizes a context window so the threshold is reached after about
// extra tokens of conversation.
func windowFor(x *enginetest.Env, extra int) int {
	system, defs := x.E.Compaction.Prefix(context.Background(), "")
	base := compact.Default().Request(system, defs, nil)
	return int(float64(base+extra) / 0.7)
}

func withWindow(x *enginetest.Env, window int, more config.Values) {
	v := config.Values{"contextWindow": float64(window)}
	for k, val := range more {
		v[k] = val
	}
	x.Reopen(v)
}

func TestCompactionTriggersAtTheThreshold(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	window := windowFor(x, 2500)
	withWindow(x, window, config.Values{"compact.keepTokens": float64(800)})
	pol := x.E.Compaction.Policy()
	est := compact.Default()
	system, defs := x.E.Compaction.Prefix(context.Background(), "")

	sid := ""
	compactedAt := -1
	for i := 0; i < 14; i++ {
		text := enginetest.Prose(150, uint64(i))
		var next int
		if sid != "" {
			user := llm.Message{Role: llm.RoleUser, Content: agent.ContextBlock(agent.ContextState{EditEnabled: true}) + text}
			next = est.Request(system, defs, append(x.Track(sid), user))
		}
		before := len(x.Model.Requests())
		sid, _ = x.Turn(sid, text)
		reqs := x.Model.Requests()[before:]
		compactions := 0
		for _, r := range reqs {
			if enginetest.IsCompactionRequest(&r) {
				compactions++
			}
		}
		want := 0
		if next > pol.Trigger() {
			want = 1
		}
		if compactions != want {
			t.Fatalf("turn %d: estimate %d vs trigger %d: %d compaction requests, want %d", i, next, pol.Trigger(), compactions, want)
		}
		if want == 1 {
			compactedAt = i
			if !enginetest.IsCompactionRequest(&reqs[0]) {
				t.Fatalf("turn %d: the compaction request must come before the turn's request", i)
			}
			tr := x.Track(sid)
			if !strings.HasPrefix(tr[0].Content, compact.SummaryPrefix) || !strings.Contains(tr[0].Content, "<state_snapshot>") {
				t.Fatalf("track does not start with the summary: %q", tr[0].Content)
			}
			if got := est.Messages(tr[1:]); got < pol.KeepTokens {
				t.Fatalf("kept %d tokens verbatim, want at least %d", got, pol.KeepTokens)
			}
			if got := est.Request(system, defs, tr); got > pol.Trigger() {
				t.Fatalf("after compaction the track is still %d tokens (trigger %d)", got, pol.Trigger())
			}
			break
		}
	}
	if compactedAt < 0 {
		t.Fatal("the threshold was never reached")
	}
	// The UI track keeps every message, plus the divider.
	page, err := x.E.Store.LoadMessages(context.Background(), sid, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	users, dividers := 0, 0
	for _, m := range page.Messages {
		if m.Role == store.RoleUser {
			users++
		}
		if m.Role == store.RoleEvent && len(m.Parts) >= 2 && strings.HasPrefix(m.Parts[0].Notice.Text, "Earlier messages were summarised (saved ") {
			dividers++
			if !strings.Contains(m.Parts[1].Text, "<state_snapshot>") {
				t.Fatalf("divider does not hold the summary: %+v", m.Parts)
			}
		}
	}
	if users != compactedAt+1 || dividers != 1 {
		t.Fatalf("UI track has %d user messages (want %d) and %d dividers (want 1)", users, compactedAt+1, dividers)
	}
	evs := x.EventsOf(sid, kinds.Compaction)
	if len(evs) != 1 {
		t.Fatalf("%d compaction events", len(evs))
	}
	info := *evs[0].Divider
	if info.Failed || info.SavedTokens <= 0 || info.Trigger != compaction.TriggerAuto || info.MessageID == "" {
		t.Fatalf("compaction info %+v", info)
	}
	recs := x.E.Compaction.Records(context.Background(), sid)
	if len(recs) != 1 || recs[0].Status != "done" || recs[0].MessageID != info.MessageID || recs[0].Saved != info.SavedTokens {
		t.Fatalf("records %+v", recs)
	}
	if v := x.Model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}

// TestCompactionRequestCarriesTheSamePrefix checks the cache-friendly
// request shape: same system prompt and tools, the old messages in their
// original form, and the instruction last.
func TestCompactionRequestCarriesTheSamePrefix(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	x.WriteFile("notes.txt", enginetest.Prose(400, 3))
	sid := ""
	for i := 0; i < 6; i++ {
		text := enginetest.Prose(60, uint64(i))
		if i%2 == 0 {
			text = "please read notes.txt and " + text
		}
		sid, _ = x.Turn(sid, text)
	}
	x.Reopen(config.Values{"compact.keepTokens": float64(300)})
	prev := x.Model.Requests()
	last := prev[len(prev)-1]
	info, err := x.E.SessionCompaction.Compact(context.Background(), sid, "", compaction.TriggerTool)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	reqs := x.Model.Requests()
	creq := reqs[len(reqs)-1]
	if !enginetest.IsCompactionRequest(&creq) {
		t.Fatal("no compaction request was sent")
	}
	cm, lm := enginetest.RawMessages(t, creq), enginetest.RawMessages(t, last)
	if !enginetest.IsPrefix(cm[:len(cm)-1], lm) {
		t.Fatal("the compaction request does not start with the previous request's messages, byte for byte")
	}
	if cm[0] != lm[0] || enginetest.RawTools(t, creq) != enginetest.RawTools(t, last) {
		t.Fatal("system prompt or tool definitions differ from the conversation's")
	}
	instr, _ := json.Marshal(map[string]string{"content": compact.Instruction, "role": "user"})
	if creq.Prefix.Chars-creq.Prefix.CommonChars > len(instr)+2 {
		t.Fatalf("prefix stats: %d of %d chars shared", creq.Prefix.CommonChars, creq.Prefix.Chars)
	}
	// The next turn sends [summary, ...kept, new message].
	sid, _ = x.Turn(sid, "continue with the plan")
	reqs = x.Model.Requests()
	next := reqs[len(reqs)-1]
	if !strings.HasPrefix(next.Messages[1].Content, compact.SummaryPrefix) {
		t.Fatalf("the request after compaction starts with %q", next.Messages[1].Content)
	}
	if len(next.Messages) != len(x.Track(sid)) {
		t.Fatalf("sent %d messages, track has %d before the final answer", len(next.Messages)-1, len(x.Track(sid))-1)
	}
}

func TestTooLargeCompactionRequestIsCutMechanicallyFirst(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	for i := 0; i < 4; i++ {
		x.WriteFile("big"+string(rune('a'+i))+".txt", enginetest.Prose(1800, uint64(10+i)))
	}
	// Fill the track with large tool outputs under a large window, then
	// switch to a model whose window the history no longer fits.
	sid := ""
	for i := 0; i < 4; i++ {
		sid, _ = x.Turn(sid, "read big"+string(rune('a'+i))+".txt please")
	}
	est := compact.Default()
	system, defs := x.E.Compaction.Prefix(context.Background(), sid)
	full := est.Request(system, defs, x.Track(sid))
	window := full * 8 / 10
	withWindow(x, window, config.Values{"compact.threshold": 1.0, "compact.keepTokens": float64(500)})
	pol := x.E.Compaction.Policy()
	system, defs = x.E.Compaction.Prefix(context.Background(), sid)
	old := est.Request(system, defs, x.Track(sid))
	if old <= pol.RequestBudget() {
		t.Fatalf("setup: track %d tokens fits the request budget %d", old, pol.RequestBudget())
	}
	x.Model.SetConfig(scripted.Config{ContextWindow: window})
	info, err := x.E.SessionCompaction.Compact(context.Background(), sid, "", compaction.TriggerButton)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	if !info.Truncated {
		t.Fatal("the request was not reported as cut down")
	}
	reqs := x.Model.Requests()
	creq := reqs[len(reqs)-1]
	if !enginetest.IsCompactionRequest(&creq) || creq.Status != 200 {
		t.Fatalf("compaction request status %d", creq.Status)
	}
	var sent []llm.Message
	for _, m := range creq.Messages[1:] {
		sent = append(sent, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
	}
	if got := est.Text(system) + est.Tools(defs) + est.Messages(sent); got > pol.RequestBudget()+64 {
		t.Fatalf("compaction request is %d tokens, budget %d", got, pol.RequestBudget())
	}
	truncated := 0
	for _, m := range creq.Messages {
		if m.Role == "tool" && strings.Contains(m.Content, compact.TruncatedMarker) {
			truncated++
		}
	}
	if truncated == 0 {
		t.Fatal("no tool output was truncated in the compaction request")
	}
}

func TestFailedOrInflatedSummaryFallsBackWithoutLooping(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply scripted.Reply
	}{
		{"no snapshot", scripted.Reply{Text: "Sure, here is a summary: we read files."}},
		{"inflated", scripted.Reply{Text: enginetest.SnapshotReply(6000)}},
		{"request failed", scripted.Reply{Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"bad request","type":"invalid_request_error"}}`)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := enginetest.New(t, nil)
			x.WriteFile("notes.txt", enginetest.Prose(900, 5))
			var attempts []int // turn index of each compaction request
			turnNo := 0
			x.Model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
				if enginetest.IsCompactionRequest(r) {
					attempts = append(attempts, turnNo)
					if len(attempts) == 1 {
						return tc.reply
					}
				}
				return enginetest.ReplyTo(r)
			})
			window := windowFor(x, 4500)
			withWindow(x, window, config.Values{"compact.keepTokens": float64(600)})
			pol := x.E.Compaction.Policy()
			est := compact.Default()
			system, defs := x.E.Compaction.Prefix(context.Background(), "")
			sid := ""
			failedAt := -1
			for turnNo = 0; turnNo < 30 && len(attempts) < 2; turnNo++ {
				text := enginetest.Prose(80, uint64(turnNo))
				if turnNo < 2 {
					text = "read notes.txt " + text
				}
				next, guard := 0, 0
				if sid != "" {
					user := llm.Message{Role: llm.RoleUser, Content: agent.ContextBlock(agent.ContextState{EditEnabled: true}) + text}
					next = est.Request(system, defs, append(x.Track(sid), user))
					guard = x.E.Compaction.RetryAbove(context.Background(), sid)
				}
				n := len(attempts)
				sid, _ = x.Turn(sid, text)
				tried := len(attempts) > n
				want := next > pol.Trigger() && next > guard
				if tried != want {
					t.Fatalf("turn %d: estimate %d, trigger %d, retry guard %d: attempted %v", turnNo, next, pol.Trigger(), guard, tried)
				}
				if len(attempts) == 1 && failedAt < 0 {
					failedAt = turnNo
					recs := x.E.Compaction.Records(context.Background(), sid)
					if len(recs) != 1 || recs[0].Status != "failed" || recs[0].Reason == "" || recs[0].Saved <= 0 {
						t.Fatalf("records %+v", recs)
					}
					shortened := false
					for _, m := range x.Track(sid) {
						if strings.HasPrefix(m.Content, compact.SummaryPrefix) {
							t.Fatal("a failed summary was installed")
						}
						if m.Role == llm.RoleTool && strings.Contains(m.Content, compact.TruncatedMarker) {
							shortened = true
						}
					}
					if !shortened {
						t.Fatal("no old tool output was truncated")
					}
					evs := x.EventsOf(sid, kinds.Compaction)
					if len(evs) != 1 || !evs[0].Divider.Failed {
						t.Fatalf("compaction events %+v", evs)
					}
				}
			}
			if failedAt < 0 || len(attempts) != 2 || attempts[1] <= failedAt+1 {
				t.Fatalf("attempts at turns %v (failure at %d): want one retry, only after the context grew", attempts, failedAt)
			}
			recs := x.E.Compaction.Records(context.Background(), sid)
			if len(recs) != 2 || recs[1].Status != "done" {
				t.Fatalf("the retry after growth did not succeed: %+v", recs)
			}
			if v := x.Model.Violations(); len(v) > 0 {
				t.Fatalf("invalid requests: %v", v)
			}
		})
	}
}

// slowSnapshot answers compaction requests slowly so work can happen
// meanwhile.
func slowSnapshot(delay time.Duration) func(r *scripted.RecordedRequest) scripted.Reply {
	return func(r *scripted.RecordedRequest) scripted.Reply {
		if enginetest.IsCompactionRequest(r) {
			return scripted.Reply{Text: enginetest.SnapshotReply(40), ChunkSize: 40, ChunkDelay: delay}
		}
		return enginetest.ReplyTo(r)
	}
}

func TestMessagesArrivingMidCompactionAreKept(t *testing.T) {
	x := enginetest.New(t, config.Values{"compact.keepTokens": float64(300)})
	x.Model.SetHandler(slowSnapshot(40 * time.Millisecond))
	sid := enginetest.FillSession(x, 6)
	before := x.Track(sid)
	job, err := x.E.SessionCompaction.Start(context.Background(), sid, compaction.TriggerButton)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.E.SessionCompaction.Start(context.Background(), sid, compaction.TriggerButton); !errors.Is(err, compaction.ErrCompacting) {
		t.Fatalf("a second compaction must be refused while one runs, got %v", err)
	}
	x.Await("the compaction request", func() bool {
		for _, r := range x.Model.Requests() {
			if enginetest.IsCompactionRequest(&r) {
				return true
			}
		}
		return false
	})
	// A whole turn runs while the summary is being written.
	x.Turn(sid, "a message sent during compaction")
	if len(x.EventsOf(sid, kinds.Compaction)) != 0 {
		t.Fatal("the compaction finished too early for this test")
	}
	during := x.Track(sid)[len(before):]
	x.Await("the compaction", func() bool { return len(x.EventsOf(sid, kinds.Compaction)) == 1 })
	ev := x.EventsOf(sid, kinds.Compaction)[0]
	if ev.TurnID != job || ev.Divider.Failed {
		t.Fatalf("compaction event %+v", ev)
	}
	after := x.Track(sid)
	if !strings.HasPrefix(after[0].Content, compact.SummaryPrefix) {
		t.Fatal("not compacted")
	}
	tail := after[len(after)-len(during):]
	for i := range during {
		if !compaction.SameMessage(tail[i], during[i]) {
			t.Fatalf("message %d appended during compaction was lost or changed", i)
		}
	}
	if !strings.Contains(tail[0].Content, "a message sent during compaction") {
		t.Fatalf("the user's message is missing: %q", tail[0].Content)
	}
}

func TestSwitchingSessionsDuringCompactionLeavesTheOtherUntouched(t *testing.T) {
	x := enginetest.New(t, config.Values{"compact.keepTokens": float64(300)})
	x.Model.SetHandler(slowSnapshot(30 * time.Millisecond))
	a := enginetest.FillSession(x, 5)
	b := enginetest.FillSession(x, 5)
	if _, err := x.E.SessionCompaction.Start(context.Background(), a, compaction.TriggerButton); err != nil {
		t.Fatal(err)
	}
	x.Turn(b, "work in the other session")
	bBefore := x.Track(b)
	x.Await("the compaction", func() bool { return len(x.EventsOf(a, kinds.Compaction)) == 1 })
	if !strings.HasPrefix(x.Track(a)[0].Content, compact.SummaryPrefix) {
		t.Fatal("session A was not compacted")
	}
	bAfter := x.Track(b)
	if len(bAfter) != len(bBefore) {
		t.Fatalf("session B changed from %d to %d messages", len(bBefore), len(bAfter))
	}
	for i := range bAfter {
		if !compaction.SameMessage(bAfter[i], bBefore[i]) || strings.HasPrefix(bAfter[i].Content, compact.SummaryPrefix) {
			t.Fatalf("session B message %d changed", i)
		}
	}
	if len(x.EventsOf(b, kinds.Compaction)) != 0 || len(x.E.Compaction.Records(context.Background(), b)) != 0 {
		t.Fatal("session B got a compaction")
	}
}

func TestCompactCommandAndTool(t *testing.T) {
	x := enginetest.New(t, config.Values{"compact.keepTokens": float64(300)})
	x.Model.SetHandler(enginetest.ReplyTo)
	sid := enginetest.FillSession(x, 5)
	n := len(x.Model.Requests())
	_, job, err := x.E.Send(context.Background(), engine.SendParams{SessionID: sid, Text: " /compact "})
	if err != nil {
		t.Fatal(err)
	}
	x.Await("the /compact job", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.TurnFinished) {
			if ev.TurnID == job {
				return true
			}
		}
		return false
	})
	reqs := x.Model.Requests()[n:]
	if len(reqs) != 1 || !enginetest.IsCompactionRequest(&reqs[0]) {
		t.Fatalf("/compact must send exactly the compaction request, sent %d", len(reqs))
	}
	if !strings.HasPrefix(x.Track(sid)[0].Content, compact.SummaryPrefix) {
		t.Fatal("/compact did not compact")
	}
	if _, _, err := x.E.Send(context.Background(), engine.SendParams{Text: "/compact"}); err == nil {
		t.Fatal("/compact without a session must fail")
	}

	// The model calls the compact tool itself.
	for i := 0; i < 4; i++ {
		x.Turn(sid, enginetest.Prose(120, uint64(200+i)))
	}
	x.Model.SetHandler(nil)
	x.Model.Enqueue(
		scripted.Reply{Text: "Compacting first.", ToolCalls: []scripted.ToolCall{{Name: "compact", Arguments: "{}"}}},
		scripted.Reply{Text: enginetest.SnapshotReply(40)},
		scripted.Reply{Text: "Done, continuing."},
	)
	x.Turn(sid, "tidy up your context, then continue")
	tr := x.Track(sid)
	if !strings.HasPrefix(tr[0].Content, compact.SummaryPrefix) {
		t.Fatal("the tool did not compact")
	}
	last := tr[len(tr)-1]
	result := tr[len(tr)-2]
	if last.Content != "Done, continuing." || result.Role != llm.RoleTool || !strings.HasPrefix(result.Content, "Compacted: ") {
		t.Fatalf("tool result %q, final %q", result.Content, last.Content)
	}
	recs := x.E.Compaction.Records(context.Background(), sid)
	if len(recs) != 2 || recs[0].Trigger != compaction.TriggerCommand || recs[1].Trigger != compaction.TriggerTool {
		t.Fatalf("records %+v", recs)
	}
	if v := x.Model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}

func TestCompactionRefusedOutsideTheFreePhase(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	window := windowFor(x, 2500)
	withWindow(x, window, config.Values{"compact.keepTokens": float64(300)})
	sid := enginetest.FillSession(x, 5)

	tool := x.E.Compaction.Tool(sid, "", false)
	res, err := tool.Run(context.Background(), nil, nil)
	if err != nil || res.OK || !strings.Contains(res.Output, "not available inside executor") {
		t.Fatalf("executor compact: %+v %v", res, err)
	}
	// The Prepare hook of a sub-agent run never compacts, even far above
	// the threshold.
	big := append(x.Track(sid), llm.Message{Role: llm.RoleUser, Content: enginetest.Prose(3000, 1)})
	tr := "t" // the turn id
	n := len(x.Model.Requests())
	sent, err := x.E.Compaction.Prepare(sid, tr, false)(context.Background(), big)
	if err != nil || len(sent) != len(big) || len(x.Model.Requests()) != n {
		t.Fatalf("sub-agent prepare compacted: %d→%d messages, %d requests", len(big), len(sent), len(x.Model.Requests())-n)
	}
	// While the scheduler blocks it, no path compacts.
	unblock := x.E.Compaction.Block(sid, "todo items are running")
	if _, err := x.E.SessionCompaction.Start(context.Background(), sid, compaction.TriggerButton); err == nil || !strings.Contains(err.Error(), "todo items are running") {
		t.Fatalf("button during scheduling: %v", err)
	}
	if _, err := x.E.SessionCompaction.Compact(context.Background(), sid, "", compaction.TriggerTool); err == nil {
		t.Fatal("tool during scheduling must be refused")
	}
	if sent, _ := x.E.Compaction.Prepare(sid, tr, true)(context.Background(), big); len(sent) != len(big) || len(x.Model.Requests()) != n {
		t.Fatal("automatic compaction ran while blocked")
	}
	unblock()
	if _, err := x.E.SessionCompaction.Compact(context.Background(), sid, "", compaction.TriggerTool); err != nil {
		t.Fatalf("after unblocking: %v", err)
	}
}
