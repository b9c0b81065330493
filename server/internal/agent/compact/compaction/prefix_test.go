package compaction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

const btwQuestion = "what does the acronym CI stand for"

// scenarioText is turn i of the 40-turn session: reads every third turn,
// one side question at turn 10.
func scenarioText(i int) string {
	switch {
	case i == 10:
		return "/btw " + btwQuestion
	case i%3 == 0:
		return fmt.Sprintf("read file%d.txt and then %s", i%5, enginetest.Prose(25, uint64(i)))
	}
	return enginetest.Prose(40, uint64(i))
}

// TestFortyTurnSessionKeepsThePrefixStable runs a scripted 40-turn session
// with tool use, one compaction and one BTW, and checks every request
// starts with the previous request's full message list, byte for byte.
// Exceptions, by design: the first request after the compaction (its
// prefix is the summary), and the turn after the BTW, which continues from
// the last request before the side conversation (the BTW branch leaves the
// model's track, as OpenVibe specifies).
func TestFortyTurnSessionKeepsThePrefixStable(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.SetHandler(enginetest.ReplyTo)
	for i := 0; i < 5; i++ {
		x.WriteFile(fmt.Sprintf("file%d.txt", i), enginetest.Prose(300, uint64(50+i)))
	}
	window := windowFor(x, 7000)
	withWindow(x, window, config.Values{"compact.keepTokens": float64(800)})
	x.Model.SetConfig(scripted.Config{ContextWindow: window})

	sid := ""
	for i := 0; i < 40; i++ {
		sid, _ = x.Turn(sid, scenarioText(i))
	}
	if v := x.Model.Violations(); len(v) > 0 {
		t.Fatalf("invalid requests: %v", v)
	}
	reqs := x.Model.Requests()
	compactions := 0
	for _, r := range reqs {
		if r.Status != 200 {
			t.Fatalf("request %d answered %d (context overflow?)", r.Seq, r.Status)
		}
		if enginetest.IsCompactionRequest(&r) {
			compactions++
		}
	}
	if compactions != 1 {
		t.Fatalf("%d compactions in 40 turns, the scenario needs exactly 1", compactions)
	}
	isBTW := func(r scripted.RecordedRequest) bool { return strings.Contains(r.LastUserMessage(), btwQuestion) }
	checked, afterCompaction := 0, false
	for i := 1; i < len(reqs); i++ {
		cur := reqs[i]
		curMsgs := enginetest.RawMessages(t, cur)
		if enginetest.IsCompactionRequest(&cur) {
			prev := enginetest.RawMessages(t, reqs[i-1])
			if !enginetest.IsPrefix(curMsgs[:len(curMsgs)-1], prev) || enginetest.RawTools(t, cur) != enginetest.RawTools(t, reqs[i-1]) {
				t.Fatalf("request %d: the compaction request does not reuse the previous request's prefix", cur.Seq)
			}
			afterCompaction = true
			continue
		}
		if afterCompaction {
			afterCompaction = false
			continue
		}
		p := i - 1
		for p >= 0 && (enginetest.IsCompactionRequest(&reqs[p]) || (!isBTW(cur) && isBTW(reqs[p]))) {
			p--
		}
		prev := enginetest.RawMessages(t, reqs[p])
		if !enginetest.IsPrefix(prev, curMsgs) {
			for k := range prev {
				if k >= len(curMsgs) || prev[k] != curMsgs[k] {
					t.Fatalf("request %d does not start with request %d's messages: first difference at message %d:\n%.300s\nvs\n%.300s", cur.Seq, reqs[p].Seq, k, prev[k], curMsgs[min(k, len(curMsgs)-1)])
				}
			}
		}
		// Side conversations offer the same tools (create_todo_list is
		// refused on call, not removed), so every request's tool list is
		// byte-identical to the previous one's.
		if enginetest.RawTools(t, cur) != enginetest.RawTools(t, reqs[p]) {
			t.Fatalf("request %d: tool definitions changed", cur.Seq)
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d requests checked", checked)
	}
}
