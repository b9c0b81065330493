package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

type quietSink struct{}

func (quietSink) TextDelta(string)                                                    {}
func (quietSink) ReasoningDelta(string)                                               {}
func (quietSink) Retry(int, string)                                                   {}
func (quietSink) Append(llm.Message)                                                  {}
func (quietSink) ToolStarted(llm.ToolCall)                                            {}
func (quietSink) ToolFinished(llm.ToolCall, tools.Result, time.Duration, llm.Message) {}
func (quietSink) Usage(llm.Usage)                                                     {}
func (quietSink) Notice(string)                                                       {}

const overflowBody = `{"error":{"message":"This model's maximum context length is 65536 tokens. However, your messages resulted in 71000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`

// TestOverflowCompactsOnceAndRetriesOnce: a context-length answer from the
// provider triggers one compaction and one retry; a second one ends the
// run with the error instead of compacting again.
func TestOverflowCompactsOnceAndRetriesOnce(t *testing.T) {
	overflow := scripted.StatusFault(400, overflowBody)
	for _, tc := range []struct {
		name    string
		replies []scripted.Reply
		wantErr bool
		wantReq int
	}{
		// Faults apply to successive requests for the same reply.
		{"retry fits", []scripted.Reply{{Text: "done", Faults: []scripted.Fault{overflow}}}, false, 2},
		{"still too long", []scripted.Reply{{Text: "never", Faults: []scripted.Fault{overflow, overflow}}}, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := scripted.Start(t, tc.replies...)
			c, err := llm.New(llm.Profile{BaseURL: srv.URL(), Model: "m", APIKey: "k", Provider: llm.ProviderOpenAI}, llm.Options{MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			compactions := 0
			r := &Run{Client: c, System: "sys", OverflowCompact: func(context.Context) error { compactions++; return nil }}
			out := r.Execute(context.Background(), []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, quietSink{})
			if compactions != 1 {
				t.Fatalf("compactions = %d, want exactly 1", compactions)
			}
			if got := len(srv.Requests()); got != tc.wantReq {
				t.Fatalf("requests = %d, want %d", got, tc.wantReq)
			}
			if tc.wantErr != (out.Err != nil) || (tc.wantErr && !errors.Is(out.Err, llm.ErrContextTooLong)) {
				t.Fatalf("outcome = %+v", out)
			}
		})
	}
}
