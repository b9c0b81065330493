package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/model/providers/recorded"
)

// TestProviderContextLengthErrorCompactsOnceAndRetriesOnce: in a real
// session, the provider's own context-length answer (OpenAI's body) makes
// the engine compact the session once and send the turn once more; when
// the retry fits the turn finishes, and when it is refused again the turn
// ends with the message saying what to do, never a second compaction.
func TestProviderContextLengthErrorCompactsOnceAndRetriesOnce(t *testing.T) {
	var body string
	for _, pe := range recorded.Exchanges["openai"].Errors {
		if pe.Kind == recorded.ContextLength {
			body = pe.Body
		}
	}
	for _, tc := range []struct {
		name      string
		refusals  int // turn-two requests refused as too long
		wantState string
	}{{"the retry fits", 1, "done"}, {"still too long", 99, "error"}} {
		t.Run(tc.name, func(t *testing.T) {
			x := enginetest.New(t, config.Values{"compact.keepTokens": float64(300)})
			var mu sync.Mutex
			armed, refused, main, compactions := false, 0, 0, 0
			x.Model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
				mu.Lock()
				defer mu.Unlock()
				if enginetest.IsCompactionRequest(r) {
					compactions++
					return scripted.Reply{Text: enginetest.SnapshotReply(60)}
				}
				main++
				if armed && refused < tc.refusals {
					refused++
					return scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.StatusFault(400, body)}}
				}
				return scripted.Reply{Text: "fits now"}
			})
			sid := enginetest.FillSession(x, 10) // enough history to compact
			mu.Lock()
			armed, main = true, 0
			mu.Unlock()
			_, tid, err := x.E.Send(context.Background(), engine.SendParams{SessionID: sid, Text: "and now?"})
			if err != nil {
				t.Fatal(err)
			}
			if st := x.E.Wait(sid); string(st) != tc.wantState {
				for _, ev := range x.EventsOf(sid, kinds.Error) {
					t.Logf("error: %+v", ev.Err)
				}
				for _, ev := range x.EventsOf(sid, kinds.Compaction) {
					t.Logf("compaction: %+v %s", ev.Payload, ev.Text)
				}
				t.Fatalf("turn ended %q, want %q", st, tc.wantState)
			}
			mu.Lock()
			defer mu.Unlock()
			if compactions != 1 || main != 2 {
				t.Fatalf("%d compactions and %d turn requests, want exactly 1 and 2", compactions, main)
			}
			if tc.wantState != "error" {
				return
			}
			x.Await("error event", func() bool {
				for _, ev := range x.EventsOf(sid, kinds.Error) {
					if ev.TurnID == tid && ev.Err != nil {
						return strings.Contains(ev.Err.Message, "window is 128k; the request was 131k") && strings.Contains(ev.Err.Message, "/compact") && ev.Err.Action == "pickModel"
					}
				}
				return false
			})
		})
	}
}
