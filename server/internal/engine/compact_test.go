package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/store"
)

// windowFor sizes a context window so the threshold is reached after about
// extra tokens of conversation.
func windowFor(x *env, extra int) int {
	base := compact.Default().Request(x.e.systemPrompt(), x.e.freeToolDefs(context.Background(), ""), nil)
	return int(float64(base+extra) / 0.7)
}

func withWindow(x *env, window int, more config.Values) {
	v := config.Values{"contextWindow": float64(window)}
	for k, val := range more {
		v[k] = val
	}
	x.reopen(v)
}

func TestCompactionTriggersAtTheThreshold(t *testing.T) {
	x := newEnv(t, nil)
	x.model.SetHandler(replyTo)
	window := windowFor(x, 2500)
	withWindow(x, window, config.Values{"compact.keepTokens": float64(800)})
	pol := x.e.compactPolicy(x.e.profile())
	est := compact.Default()
	system, defs := x.e.systemPrompt(), x.e.requestToolDefs(context.Background(), "", x.e.profile())

	sid := ""
	compactedAt := -1
	for i := 0; i < 14; i++ {
		text := prose(150, uint64(i))
		var next int
		if sid != "" {
			user := llm.Message{Role: llm.RoleUser, Content: agent.ContextBlock(agent.ContextState{EditEnabled: true}) + text}
			next = est.Request(system, defs, append(x.track(sid), user))
		}
		before := len(x.model.Requests())
		sid, _ = x.turn(sid, text)
		reqs := x.model.Requests()[before:]
		compactions := 0
		for _, r := range reqs {
			if isCompactionRequest(&r) {
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
			if !isCompactionRequest(&reqs[0]) {
				t.Fatalf("turn %d: the compaction request must come before the turn's request", i)
			}
			tr := x.track(sid)
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
	page, err := x.e.Store.LoadMessages(context.Background(), sid, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	users, dividers := 0, 0
	for _, m := range page.Messages {
		if m.Role == store.RoleUser {
			users++
		}
		if m.Role == store.RoleEvent && len(m.Parts) == 2 && strings.HasPrefix(m.Parts[0].Notice.Text, "Earlier messages were summarised (saved ") {
			dividers++
			if !strings.Contains(m.Parts[1].Text, "<state_snapshot>") {
				t.Fatalf("divider does not hold the summary: %+v", m.Parts)
			}
		}
	}
	if users != compactedAt+1 || dividers != 1 {
		t.Fatalf("UI track has %d user messages (want %d) and %d dividers (want 1)", users, compactedAt+1, dividers)
	}
	evs := x.eventsOf(sid, KindCompaction)
	if len(evs) != 1 {
		t.Fatalf("%d compaction events", len(evs))
	}
	info := evs[0].Payload.(CompactionInfo)
	if info.Failed || info.SavedTokens <= 0 || info.Trigger != TriggerAuto || info.MessageID == "" {
		t.Fatalf("compaction info %+v", info)
	}
	recs := x.e.Compactions(context.Background(), sid)
	if len(recs) != 1 || recs[0].Status != "done" || recs[0].MessageID != info.MessageID || recs[0].Saved != info.SavedTokens {
		t.Fatalf("records %+v", recs)
	}
	if v := x.model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}

// TestCompactionRequestCarriesTheSamePrefix checks the cache-friendly
// request shape: same system prompt and tools, the old messages in their
// original form, and the instruction last.
func TestCompactionRequestCarriesTheSamePrefix(t *testing.T) {
	x := newEnv(t, nil)
	x.model.SetHandler(replyTo)
	x.writeFile("notes.txt", prose(400, 3))
	sid := ""
	for i := 0; i < 6; i++ {
		text := prose(60, uint64(i))
		if i%2 == 0 {
			text = "please read notes.txt and " + text
		}
		sid, _ = x.turn(sid, text)
	}
	x.reopen(config.Values{"compact.keepTokens": float64(300)})
	prev := x.model.Requests()
	last := prev[len(prev)-1]
	info, err := x.e.Compact(context.Background(), sid, "", TriggerTool)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	reqs := x.model.Requests()
	creq := reqs[len(reqs)-1]
	if !isCompactionRequest(&creq) {
		t.Fatal("no compaction request was sent")
	}
	cm, lm := rawMessages(t, creq), rawMessages(t, last)
	if !isPrefix(cm[:len(cm)-1], lm) {
		t.Fatal("the compaction request does not start with the previous request's messages, byte for byte")
	}
	if cm[0] != lm[0] || rawTools(t, creq) != rawTools(t, last) {
		t.Fatal("system prompt or tool definitions differ from the conversation's")
	}
	instr, _ := json.Marshal(map[string]string{"content": compact.Instruction, "role": "user"})
	if creq.Prefix.Chars-creq.Prefix.CommonChars > len(instr)+2 {
		t.Fatalf("prefix stats: %d of %d chars shared", creq.Prefix.CommonChars, creq.Prefix.Chars)
	}
	// The next turn sends [summary, ...kept, new message].
	sid, _ = x.turn(sid, "continue with the plan")
	reqs = x.model.Requests()
	next := reqs[len(reqs)-1]
	if !strings.HasPrefix(next.Messages[1].Content, compact.SummaryPrefix) {
		t.Fatalf("the request after compaction starts with %q", next.Messages[1].Content)
	}
	if len(next.Messages) != len(x.track(sid)) {
		t.Fatalf("sent %d messages, track has %d before the final answer", len(next.Messages)-1, len(x.track(sid))-1)
	}
}

func TestTooLargeCompactionRequestIsCutMechanicallyFirst(t *testing.T) {
	x := newEnv(t, nil)
	x.model.SetHandler(replyTo)
	for i := 0; i < 4; i++ {
		x.writeFile("big"+string(rune('a'+i))+".txt", prose(1800, uint64(10+i)))
	}
	// Fill the track with large tool outputs under a large window, then
	// switch to a model whose window the history no longer fits.
	sid := ""
	for i := 0; i < 4; i++ {
		sid, _ = x.turn(sid, "read big"+string(rune('a'+i))+".txt please")
	}
	est := compact.Default()
	full := est.Request(x.e.systemPrompt(), x.e.freeToolDefs(context.Background(), sid), x.track(sid))
	window := full * 8 / 10
	withWindow(x, window, config.Values{"compact.threshold": 1.0, "compact.keepTokens": float64(500)})
	pol := x.e.compactPolicy(x.e.profile())
	old := est.Request(x.e.systemPrompt(), x.e.freeToolDefs(context.Background(), sid), x.track(sid))
	if old <= pol.RequestBudget() {
		t.Fatalf("setup: track %d tokens fits the request budget %d", old, pol.RequestBudget())
	}
	x.model.SetConfig(scripted.Config{ContextWindow: window})
	info, err := x.e.Compact(context.Background(), sid, "", TriggerButton)
	if err != nil || info.Failed {
		t.Fatalf("compact: %v %+v", err, info)
	}
	if !info.Truncated {
		t.Fatal("the request was not reported as cut down")
	}
	reqs := x.model.Requests()
	creq := reqs[len(reqs)-1]
	if !isCompactionRequest(&creq) || creq.Status != 200 {
		t.Fatalf("compaction request status %d", creq.Status)
	}
	var sent []llm.Message
	for _, m := range creq.Messages[1:] {
		sent = append(sent, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
	}
	if got := est.Text(x.e.systemPrompt()) + est.Tools(x.e.freeToolDefs(context.Background(), sid)) + est.Messages(sent); got > pol.RequestBudget()+64 {
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
		{"inflated", scripted.Reply{Text: snapshotReply(6000)}},
		{"request failed", scripted.Reply{Faults: []scripted.Fault{scripted.StatusFault(400, `{"error":{"message":"bad request","type":"invalid_request_error"}}`)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newEnv(t, nil)
			x.writeFile("notes.txt", prose(900, 5))
			var attempts []int // turn index of each compaction request
			turnNo := 0
			x.model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
				if isCompactionRequest(r) {
					attempts = append(attempts, turnNo)
					if len(attempts) == 1 {
						return tc.reply
					}
				}
				return replyTo(r)
			})
			window := windowFor(x, 4500)
			withWindow(x, window, config.Values{"compact.keepTokens": float64(600)})
			pol := x.e.compactPolicy(x.e.profile())
			est := compact.Default()
			system, defs := x.e.systemPrompt(), x.e.requestToolDefs(context.Background(), "", x.e.profile())
			sid := ""
			failedAt := -1
			for turnNo = 0; turnNo < 30 && len(attempts) < 2; turnNo++ {
				text := prose(80, uint64(turnNo))
				if turnNo < 2 {
					text = "read notes.txt " + text
				}
				next, guard := 0, 0
				if sid != "" {
					user := llm.Message{Role: llm.RoleUser, Content: agent.ContextBlock(agent.ContextState{EditEnabled: true}) + text}
					next = est.Request(system, defs, append(x.track(sid), user))
					guard = x.e.guardOf(context.Background(), sid).RetryAbove
				}
				n := len(attempts)
				sid, _ = x.turn(sid, text)
				tried := len(attempts) > n
				want := next > pol.Trigger() && next > guard
				if tried != want {
					t.Fatalf("turn %d: estimate %d, trigger %d, retry guard %d: attempted %v", turnNo, next, pol.Trigger(), guard, tried)
				}
				if len(attempts) == 1 && failedAt < 0 {
					failedAt = turnNo
					recs := x.e.Compactions(context.Background(), sid)
					if len(recs) != 1 || recs[0].Status != "failed" || recs[0].Reason == "" || recs[0].Saved <= 0 {
						t.Fatalf("records %+v", recs)
					}
					shortened := false
					for _, m := range x.track(sid) {
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
					evs := x.eventsOf(sid, KindCompaction)
					if len(evs) != 1 || !evs[0].Payload.(CompactionInfo).Failed {
						t.Fatalf("compaction events %+v", evs)
					}
				}
			}
			if failedAt < 0 || len(attempts) != 2 || attempts[1] <= failedAt+1 {
				t.Fatalf("attempts at turns %v (failure at %d): want one retry, only after the context grew", attempts, failedAt)
			}
			recs := x.e.Compactions(context.Background(), sid)
			if len(recs) != 2 || recs[1].Status != "done" {
				t.Fatalf("the retry after growth did not succeed: %+v", recs)
			}
			if v := x.model.Violations(); len(v) > 0 {
				t.Fatalf("invalid requests: %v", v)
			}
		})
	}
}

// slowSnapshot answers compaction requests slowly so work can happen
// meanwhile.
func slowSnapshot(delay time.Duration) func(r *scripted.RecordedRequest) scripted.Reply {
	return func(r *scripted.RecordedRequest) scripted.Reply {
		if isCompactionRequest(r) {
			return scripted.Reply{Text: snapshotReply(40), ChunkSize: 40, ChunkDelay: delay}
		}
		return replyTo(r)
	}
}

func fillSession(x *env, turns int) string {
	sid := ""
	for i := 0; i < turns; i++ {
		sid, _ = x.turn(sid, prose(120, uint64(100+i)))
	}
	return sid
}

func TestMessagesArrivingMidCompactionAreKept(t *testing.T) {
	x := newEnv(t, config.Values{"compact.keepTokens": float64(300)})
	x.model.SetHandler(slowSnapshot(40 * time.Millisecond))
	sid := fillSession(x, 6)
	before := x.track(sid)
	job, err := x.e.StartCompaction(context.Background(), sid, TriggerButton)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.e.StartCompaction(context.Background(), sid, TriggerButton); !errors.Is(err, ErrCompacting) {
		t.Fatalf("a second compaction must be refused while one runs, got %v", err)
	}
	x.await("the compaction request", func() bool {
		for _, r := range x.model.Requests() {
			if isCompactionRequest(&r) {
				return true
			}
		}
		return false
	})
	// A whole turn runs while the summary is being written.
	x.turn(sid, "a message sent during compaction")
	if len(x.eventsOf(sid, KindCompaction)) != 0 {
		t.Fatal("the compaction finished too early for this test")
	}
	during := x.track(sid)[len(before):]
	x.await("the compaction", func() bool { return len(x.eventsOf(sid, KindCompaction)) == 1 })
	ev := x.eventsOf(sid, KindCompaction)[0]
	if ev.TurnID != job || ev.Payload.(CompactionInfo).Failed {
		t.Fatalf("compaction event %+v", ev)
	}
	after := x.track(sid)
	if !strings.HasPrefix(after[0].Content, compact.SummaryPrefix) {
		t.Fatal("not compacted")
	}
	tail := after[len(after)-len(during):]
	for i := range during {
		if !sameMessage(tail[i], during[i]) {
			t.Fatalf("message %d appended during compaction was lost or changed", i)
		}
	}
	if !strings.Contains(tail[0].Content, "a message sent during compaction") {
		t.Fatalf("the user's message is missing: %q", tail[0].Content)
	}
}

func TestSwitchingSessionsDuringCompactionLeavesTheOtherUntouched(t *testing.T) {
	x := newEnv(t, config.Values{"compact.keepTokens": float64(300)})
	x.model.SetHandler(slowSnapshot(30 * time.Millisecond))
	a := fillSession(x, 5)
	b := fillSession(x, 5)
	if _, err := x.e.StartCompaction(context.Background(), a, TriggerButton); err != nil {
		t.Fatal(err)
	}
	x.turn(b, "work in the other session")
	bBefore := x.track(b)
	x.await("the compaction", func() bool { return len(x.eventsOf(a, KindCompaction)) == 1 })
	if !strings.HasPrefix(x.track(a)[0].Content, compact.SummaryPrefix) {
		t.Fatal("session A was not compacted")
	}
	bAfter := x.track(b)
	if len(bAfter) != len(bBefore) {
		t.Fatalf("session B changed from %d to %d messages", len(bBefore), len(bAfter))
	}
	for i := range bAfter {
		if !sameMessage(bAfter[i], bBefore[i]) || strings.HasPrefix(bAfter[i].Content, compact.SummaryPrefix) {
			t.Fatalf("session B message %d changed", i)
		}
	}
	if len(x.eventsOf(b, KindCompaction)) != 0 || len(x.e.Compactions(context.Background(), b)) != 0 {
		t.Fatal("session B got a compaction")
	}
}

func TestCompactCommandAndTool(t *testing.T) {
	x := newEnv(t, config.Values{"compact.keepTokens": float64(300)})
	x.model.SetHandler(replyTo)
	sid := fillSession(x, 5)
	n := len(x.model.Requests())
	_, job, err := x.e.Send(context.Background(), SendParams{SessionID: sid, Text: " /compact "})
	if err != nil {
		t.Fatal(err)
	}
	x.await("the /compact job", func() bool {
		for _, ev := range x.eventsOf(sid, KindTurnFinished) {
			if ev.TurnID == job {
				return true
			}
		}
		return false
	})
	reqs := x.model.Requests()[n:]
	if len(reqs) != 1 || !isCompactionRequest(&reqs[0]) {
		t.Fatalf("/compact must send exactly the compaction request, sent %d", len(reqs))
	}
	if !strings.HasPrefix(x.track(sid)[0].Content, compact.SummaryPrefix) {
		t.Fatal("/compact did not compact")
	}
	if _, _, err := x.e.Send(context.Background(), SendParams{Text: "/compact"}); err == nil {
		t.Fatal("/compact without a session must fail")
	}

	// The model calls the compact tool itself.
	for i := 0; i < 4; i++ {
		x.turn(sid, prose(120, uint64(200+i)))
	}
	x.model.SetHandler(nil)
	x.model.Enqueue(
		scripted.Reply{Text: "Compacting first.", ToolCalls: []scripted.ToolCall{{Name: "compact", Arguments: "{}"}}},
		scripted.Reply{Text: snapshotReply(40)},
		scripted.Reply{Text: "Done, continuing."},
	)
	x.turn(sid, "tidy up your context, then continue")
	tr := x.track(sid)
	if !strings.HasPrefix(tr[0].Content, compact.SummaryPrefix) {
		t.Fatal("the tool did not compact")
	}
	last := tr[len(tr)-1]
	result := tr[len(tr)-2]
	if last.Content != "Done, continuing." || result.Role != llm.RoleTool || !strings.HasPrefix(result.Content, "Compacted: ") {
		t.Fatalf("tool result %q, final %q", result.Content, last.Content)
	}
	recs := x.e.Compactions(context.Background(), sid)
	if len(recs) != 2 || recs[0].Trigger != TriggerCommand || recs[1].Trigger != TriggerTool {
		t.Fatalf("records %+v", recs)
	}
	if v := x.model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
}

func TestCompactionRefusedOutsideTheFreePhase(t *testing.T) {
	x := newEnv(t, nil)
	x.model.SetHandler(replyTo)
	window := windowFor(x, 2500)
	withWindow(x, window, config.Values{"compact.keepTokens": float64(300)})
	sid := fillSession(x, 5)

	tool := x.e.compactTool(sid, "", "executor:1")
	res, err := tool.Run(context.Background(), nil, nil)
	if err != nil || res.OK || !strings.Contains(res.Output, "not available inside executor") {
		t.Fatalf("executor compact: %+v %v", res, err)
	}
	// The Prepare hook of a sub-agent run never compacts, even far above
	// the threshold.
	big := append(x.track(sid), llm.Message{Role: llm.RoleUser, Content: prose(3000, 1)})
	tr := &turn{id: "t", sessionID: sid}
	n := len(x.model.Requests())
	sent, err := x.e.prepareHook(tr, "evaluator:2")(context.Background(), big)
	if err != nil || len(sent) != len(big) || len(x.model.Requests()) != n {
		t.Fatalf("sub-agent prepare compacted: %d→%d messages, %d requests", len(big), len(sent), len(x.model.Requests())-n)
	}
	// While the scheduler blocks it, no path compacts.
	unblock := x.e.BlockCompaction(sid, "todo items are running")
	if _, err := x.e.StartCompaction(context.Background(), sid, TriggerButton); err == nil || !strings.Contains(err.Error(), "todo items are running") {
		t.Fatalf("button during scheduling: %v", err)
	}
	if _, err := x.e.Compact(context.Background(), sid, "", TriggerTool); err == nil {
		t.Fatal("tool during scheduling must be refused")
	}
	if sent, _ := x.e.prepareHook(tr, TagFree)(context.Background(), big); len(sent) != len(big) || len(x.model.Requests()) != n {
		t.Fatal("automatic compaction ran while blocked")
	}
	unblock()
	if _, err := x.e.Compact(context.Background(), sid, "", TriggerTool); err != nil {
		t.Fatalf("after unblocking: %v", err)
	}
}
