package integration

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

const snapshotText = "<state_snapshot>\n<overall_goal>Ship the parser fix.</overall_goal>\n<key_knowledge>\n- tests run with go test\n</key_knowledge>\n" +
	"<current_plan>\n1. [DONE] reproduce\n2. [IN PROGRESS] fix\n</current_plan>\n</state_snapshot>"

func compactingModel(t *testing.T) *scripted.Server {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if compact.IsInstruction(r.LastUserMessage()) {
			return scripted.Reply{Text: snapshotText, ChunkSize: 64}
		}
		return scripted.Reply{Text: strings.Repeat(fmt.Sprintf("answer number %d with some detail about the parser. ", len(r.Messages)), 12),
			ChunkSize: 200, Usage: &scripted.Usage{PromptTokens: int64(100 * len(r.Messages)), CompletionTokens: 50, CachedTokens: 64}}
	})
	return model
}

// sendIdle sends once the previous turn has released the session:
// turnFinished is published just before the turn lets go of it.
func sendIdle(t *testing.T, ed *fakeeditor.Editor, sid, text string) protocol.ChatSendResult {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var res protocol.ChatSendResult
		err := ed.Call("chat/send", protocol.ChatSendParams{SessionID: sid, Text: text}, &res)
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeBusy && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatalf("chat/send: %v", err)
		}
		return res
	}
}

func fillChat(t *testing.T, ed *fakeeditor.Editor, n int) string {
	t.Helper()
	sid := ""
	for i := 0; i < n; i++ {
		r := sendIdle(t, ed, sid, fmt.Sprintf("step %d: please look at the parser, it fails on input %d with a long and detailed description of the failure", i, i))
		sid = r.SessionID
		if fin := ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("turn %d: %q", i, fin.Status)
		}
	}
	return sid
}

func TestCompactButtonDividerAndReload(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := compactingModel(t)
		ed := connect(t, bin, model, map[string]any{"compact": map[string]any{"keepTokens": 100}})
		sid := fillChat(t, ed, 5)
		fins := ed.Events(sid)
		last := fins[len(fins)-1]
		if last.Context == nil || last.Context.UsedTokens != 50+int64(100*10) || last.Context.WindowTokens != 128000 || last.Context.SessionUsage.PromptTokens == 0 {
			t.Fatalf("turnFinished context %+v", last.Context)
		}
		if err := ed.Call("chat/compact", protocol.CompactParams{SessionID: sid}, nil); err != nil {
			t.Fatalf("chat/compact: %v", err)
		}
		var ev protocol.ChatEvent
		ed.Await("the compaction event", 20*time.Second, func(e *fakeeditor.Editor) bool {
			for _, x := range e.Events(sid) {
				if x.Kind == kinds.Compaction {
					ev = x
					return true
				}
			}
			return false
		})
		if ev.Message == nil || ev.Message.Role != "event" || len(ev.Message.Parts) != 3 || ev.Context == nil {
			t.Fatalf("compaction event %+v", ev)
		}
		meta, _ := ev.Message.Parts[0].Meta.(map[string]any)
		if meta["kind"] != "compaction" || meta["savedTokens"].(float64) <= 0 || ev.Message.Parts[1].Text != snapshotText {
			t.Fatalf("divider parts %+v", ev.Message.Parts)
		}
		// The first request was summarised: the divider shows it kept, as
		// the model reads it after the summary.
		kept, _ := meta["kept"].(map[string]any)
		if kept["request"] != true || meta["summarisedMessages"].(float64) <= 0 ||
			!strings.Contains(ev.Message.Parts[2].Text, "<original_request>\nstep 0: please look at the parser") {
			t.Fatalf("divider's kept part %+v, meta %v", ev.Message.Parts[2], meta)
		}
		if !strings.HasPrefix(ev.Message.Parts[0].Text, "Earlier messages were summarised (saved ") {
			t.Fatalf("divider text %q", ev.Message.Parts[0].Text)
		}

		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
			t.Fatal(err)
		}
		users, dividers := 0, 0
		for _, m := range load.Messages {
			if m.Role == "user" {
				users++
			}
			if m.ID == ev.Message.ID {
				dividers++
				lm, _ := m.Parts[0].Meta.(map[string]any)
				if lm["kind"] != "compaction" || lm["savedTokens"] != meta["savedTokens"] || m.Parts[1].Text != snapshotText ||
					lm["summarisedMessages"] != meta["summarisedMessages"] || fmt.Sprint(lm["kept"]) != fmt.Sprint(meta["kept"]) {
					t.Fatalf("loaded divider %+v", m.Parts)
				}
			}
		}
		if users != 5 || dividers != 1 {
			t.Fatalf("loaded %d user messages and %d dividers", users, dividers)
		}
		if load.Context == nil || load.Context.WindowTokens != 128000 || load.Context.UsedTokens <= 0 {
			t.Fatalf("loaded context %+v", load.Context)
		}
		// The next turn sends the summary first.
		r := sendIdle(t, ed, sid, "carry on")
		ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
		reqs := model.Requests()
		if first := reqs[len(reqs)-1].Messages[1].Content; !strings.HasPrefix(first, compact.SummaryPrefix) {
			t.Fatalf("request after compaction starts with %q", first)
		}
	})
}

func TestCompactCommandAndErrors(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := compactingModel(t)
		ed := connect(t, bin, model, map[string]any{"compact": map[string]any{"keepTokens": 100}})
		var rpcErr *jsonrpc2.Error
		err := ed.Call("chat/compact", protocol.CompactParams{SessionID: "no-such-session"}, nil)
		if !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeNotFound {
			t.Fatalf("compacting an unknown session: %v", err)
		}
		sid := fillChat(t, ed, 1)
		// One short exchange: nothing is old enough to summarise.
		r := sendIdle(t, ed, sid, "/compact")
		fin := ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
		if fin.Status != "done" {
			t.Fatalf("/compact on a short chat: %q", fin.Status)
		}
		notice := false
		for _, ev := range ed.Events(sid) {
			if ev.Kind == kinds.Notice && ev.TurnID == r.TurnID && strings.Contains(ev.Text, "Nothing to summarise") {
				notice = true
			}
		}
		if !notice {
			t.Fatal("no notice explains why nothing was summarised")
		}
		fillChatMore(t, ed, sid, 4)
		r = sendIdle(t, ed, sid, "/compact")
		if fin := ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second); fin.Status != "done" || fin.Context == nil {
			t.Fatalf("/compact: %+v", fin)
		}
		got := 0
		for _, ev := range ed.Events(sid) {
			if ev.Kind == kinds.Compaction && ev.TurnID == r.TurnID {
				got++
			}
		}
		if got != 1 {
			t.Fatalf("%d compaction events for /compact", got)
		}
		if v := model.Violations(); len(v) > 0 {
			t.Fatal(v)
		}
	})
}

func fillChatMore(t *testing.T, ed *fakeeditor.Editor, sid string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		r := sendIdle(t, ed, sid, fmt.Sprintf("more work %d on the parser with another long explanation of what to change and why", i))
		ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
	}
}
