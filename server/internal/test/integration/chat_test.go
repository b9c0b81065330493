package integration

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func connect(t *testing.T, bin string, model *scripted.Server, settings map[string]any) *fakeeditor.Editor {
	t.Helper()
	s := map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}
	for k, v := range settings {
		s[k] = v
	}
	return fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Settings: s, APIKey: "sk-test-key-0123456789"})
}

func send(t *testing.T, ed *fakeeditor.Editor, sid, text string) protocol.ChatSendResult {
	t.Helper()
	var res protocol.ChatSendResult
	if err := ed.Call("chat/send", protocol.ChatSendParams{SessionID: sid, Text: text}, &res); err != nil {
		t.Fatalf("chat/send: %v", err)
	}
	return res
}

func TestStreamedReply(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Reasoning: "thinking about it", Text: "Hello **world**\n\n```go\nfmt.Println(1)\n```\n",
			Usage: &scripted.Usage{PromptTokens: 100, CompletionTokens: 20, CachedTokens: 60}})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "say hello")
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if fin.Status != "done" {
			t.Fatalf("status %q", fin.Status)
		}
		if got := ed.Text(r.SessionID, r.TurnID); !strings.Contains(got, "Hello **world**") || !strings.Contains(got, "fmt.Println(1)") {
			t.Fatalf("streamed text %q", got)
		}
		evs := ed.Events(r.SessionID)
		var deltas, reasoning int
		for i, ev := range evs {
			if ev.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d: seq must increase by one", i, ev.Seq)
			}
			switch ev.Kind {
			case kinds.TextDelta:
				deltas++
			case kinds.ReasoningDelta:
				reasoning++
			}
		}
		if deltas < 3 || reasoning < 1 {
			t.Fatalf("want several text deltas and reasoning; got %d text, %d reasoning", deltas, reasoning)
		}
		if fin.Usage == nil || fin.Usage.PromptTokens != 100 || fin.Usage.CachedTokens != 60 {
			t.Fatalf("usage %+v", fin.Usage)
		}
		// The history survives: session/load shows the user message and the answer.
		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
			t.Fatal(err)
		}
		if len(load.Messages) != 2 || load.Messages[0].Role != "user" || load.Messages[1].Status != "done" {
			t.Fatalf("loaded %+v", load.Messages)
		}
		if !strings.Contains(load.Messages[1].Parts[len(load.Messages[1].Parts)-1].Text, "Hello **world**") {
			t.Fatalf("stored answer %+v", load.Messages[1].Parts)
		}
	})
}

func TestCancelMidStreamStopsTheRequest(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Text: strings.Repeat("slow words ", 400), ChunkDelay: 20 * time.Millisecond})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "write a lot")
		ed.Await("some text", 10*time.Second, func(e *fakeeditor.Editor) bool { return len(e.Text(r.SessionID, r.TurnID)) > 20 })
		start := time.Now()
		if err := ed.Call("chat/cancel", protocol.ChatCancelParams{SessionID: r.SessionID}, nil); err != nil {
			t.Fatal(err)
		}
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 5*time.Second)
		if fin.Status != "cancelled" {
			t.Fatalf("status %q", fin.Status)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("cancel took %v", d)
		}
		if err := model.WaitIdle(3 * time.Second); err != nil {
			t.Fatal(err)
		}
		reqs := model.Requests()
		if !reqs[len(reqs)-1].ClientGone {
			t.Fatalf("the HTTP request was not aborted: %+v", reqs[len(reqs)-1].Outcome)
		}
	})
}

func TestRateLimitedThenRetried(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Text: "after the wait", Faults: []scripted.Fault{scripted.Status429("0")}})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "hi")
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if fin.Status != "done" || ed.Text(r.SessionID, r.TurnID) != "after the wait" {
			t.Fatalf("status %q text %q", fin.Status, ed.Text(r.SessionID, r.TurnID))
		}
		if n := len(model.Requests()); n != 2 {
			t.Fatalf("want 2 requests (429 then success), got %d", n)
		}
	})
}

func TestBrokenStreamRetriedAndPartialDiscarded(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Text: "the complete answer arrives intact", ChunkSize: 4,
			Faults: []scripted.Fault{scripted.ResetAfter(3), scripted.NoDoneAfter(4)}})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "hi")
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 30*time.Second)
		if fin.Status != "done" {
			t.Fatalf("status %q\n%s", fin.Status, ed.Stderr())
		}
		var retries int
		for _, ev := range ed.Events(r.SessionID) {
			if ev.Kind == kinds.Retry {
				retries++
			}
		}
		if retries != 2 {
			t.Fatalf("want 2 retry events, got %d", retries)
		}
		if got := ed.Text(r.SessionID, r.TurnID); got != "the complete answer arrives intact" {
			t.Fatalf("text after discarding partials: %q", got)
		}
		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
			t.Fatal(err)
		}
		var stored strings.Builder
		for _, p := range load.Messages[1].Parts {
			if p.Type == "text" {
				stored.WriteString(p.Text)
			}
		}
		if stored.String() != "the complete answer arrives intact" {
			t.Fatalf("stored text keeps partials: %q", stored.String())
		}
	})
}

func TestRetryCapReportsClearError(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		faults := make([]scripted.Fault, 12)
		for i := range faults {
			faults[i] = scripted.ResetAfter(2)
		}
		model := scripted.Start(t, scripted.Reply{Text: "never completes", Faults: faults})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "hi")
		fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 60*time.Second)
		if fin.Status != "error" {
			t.Fatalf("status %q", fin.Status)
		}
		var msg string
		for _, ev := range ed.Events(r.SessionID) {
			if ev.Kind == kinds.Error {
				msg = ev.Error.Message
			}
		}
		if msg == "" || !strings.Contains(msg, "times in a row") {
			t.Fatalf("error message %q should say the attempts ran out", msg)
		}
	})
}

func TestUnknownMethod(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t)
		ed := connect(t, bin, model, nil)
		err := ed.Call("no/such/method", map[string]any{}, nil)
		var re *jsonrpc2.Error
		if !errors.As(err, &re) || re.Code != protocol.CodeMethodNotFound {
			t.Fatalf("want MethodNotFound, got %v", err)
		}
	})
}

func TestMalformedInputKeepsServerUp(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t)
		ed := connect(t, bin, model, nil)
		for _, raw := range []string{
			"Content-Length: 9\r\n\r\n{not json",
			"Content-Length: 2\r\n\r\n[]",
			"Bogus header line\r\n\r\n",
			"Content-Length: abc\r\n\r\n",
		} {
			if err := ed.RawWrite([]byte(raw)); err != nil {
				t.Fatal(err)
			}
		}
		ed.Await("parse errors reported", 5*time.Second, func(e *fakeeditor.Editor) bool { return true })
		var list protocol.SessionListResult
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := ed.Conn.Call(ctx, "session/list", protocol.SessionListParams{}, &list); err != nil {
			t.Fatalf("the server did not survive malformed input: %v\n%s", err, ed.Stderr())
		}
	})
}

func TestProtocolVersionMismatch(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed := fakeeditor.New(t, fakeeditor.Options{Binary: bin})
		_, err := ed.Initialize(context.Background(), fakeeditor.Options{}, protocol.Version+1)
		var re *jsonrpc2.Error
		if !errors.As(err, &re) || re.Code != protocol.CodeVersionMismatch {
			t.Fatalf("want CodeVersionMismatch, got %v", err)
		}
		if !strings.Contains(re.Message, "version") {
			t.Fatalf("message should explain: %q", re.Message)
		}
	})
}
