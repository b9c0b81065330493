package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// rawSSE serves hand-written SSE bodies, one per request in turn, for
// dialects and failures the scripted model does not produce.
func rawSSE(t *testing.T, bodies ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(bodies) {
			http.Error(w, "no more scripted bodies", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprint(w, bodies[i])
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// Interleaved parallel tool-call deltas (by index), OpenRouter's reasoning
// field, and DeepSeek's cache field all come through one stream.
func TestStreamDialectsAndInterleavedToolCalls(t *testing.T) {
	body := sse(
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"plan"},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"content":"Reading."},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"grep","arguments":"{\"q\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"x\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.go\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":900,"completion_tokens":40,"prompt_cache_hit_tokens":512,"prompt_cache_miss_tokens":388}}`,
		`[DONE]`,
	)
	srv, _ := rawSSE(t, body)
	c := newClient(t, srv.URL, nil)
	var tr transcript
	resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ReasoningContent != "plan" || tr.reasoning.String() != "plan" || resp.Content != "Reading." {
		t.Fatalf("reasoning %q content %q", resp.ReasoningContent, resp.Content)
	}
	want := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "call_b", Name: "grep", Arguments: `{"q":"x"}`},
	}
	if fmt.Sprint(resp.ToolCalls) != fmt.Sprint(want) {
		t.Fatalf("tool calls %+v", resp.ToolCalls)
	}
	if resp.FinishReason != "tool_calls" || resp.Usage != (llm.Usage{PromptTokens: 900, CompletionTokens: 40, CachedTokens: 512, CacheReportedTokens: 900}) {
		t.Fatalf("finish %q usage %+v", resp.FinishReason, resp.Usage)
	}
}

// An error event or a malformed chunk in the middle of a stream breaks the
// attempt: the consumer is told to drop what it got, and the retry's
// answer is the one returned.
func TestErrorEventAndMalformedChunkRetried(t *testing.T) {
	cases := map[string]string{
		"error event":     `{"error":{"message":"Overloaded","type":"server_error","code":null}}`,
		"malformed chunk": `{"choices":[{"index":0,"delta":{"content":"x"`,
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			first := sse(`{"choices":[{"index":0,"delta":{"content":"Partial "}}]}`, bad,
				`{"choices":[{"index":0,"delta":{"content":"never read"}}]}`)
			second := sse(`{"choices":[{"index":0,"delta":{"content":"Whole answer."}}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, `[DONE]`)
			srv, n := rawSSE(t, first, second)
			c := newClient(t, srv.URL, nil)
			var tr transcript
			resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
			if err != nil {
				t.Fatal(err)
			}
			if n.Load() != 2 || len(tr.retries) != 1 {
				t.Fatalf("%d requests, retries %+v", n.Load(), tr.retries)
			}
			if name == "error event" && !strings.Contains(tr.retries[0].Reason, "stream broke") {
				t.Fatalf("retry reason %q", tr.retries[0].Reason)
			}
			if resp.Content != "Whole answer." || tr.text.String() != "Whole answer." {
				t.Fatalf("resp %q consumer %q", resp.Content, tr.text.String())
			}
		})
	}
}
