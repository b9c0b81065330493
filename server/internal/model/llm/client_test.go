package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

const testKey = "sk-test-SECRET-0123456789"

// transcript is a consumer that follows the EventRetry contract: it drops
// everything received since the current attempt began.
type transcript struct {
	mu        sync.Mutex
	text      strings.Builder
	reasoning strings.Builder
	events    []llm.Event
	retries   []llm.Event
}

func (tr *transcript) on(e llm.Event) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.events = append(tr.events, e)
	switch e.Kind {
	case llm.EventText:
		tr.text.WriteString(e.Text)
	case llm.EventReasoning:
		tr.reasoning.WriteString(e.Text)
	case llm.EventRetry:
		tr.retries = append(tr.retries, e)
		tr.text.Reset()
		tr.reasoning.Reset()
	}
}

func fastOptions() llm.Options {
	return llm.Options{
		MaxAttempts: 4,
		BaseBackoff: time.Millisecond,
		MaxBackoff:  5 * time.Millisecond,
		IdleTimeout: 3 * time.Second,
	}
}

func newClient(t testing.TB, baseURL string, mod func(*llm.Profile, *llm.Options)) *llm.OpenAIClient {
	t.Helper()
	p := llm.Profile{Name: "test", BaseURL: baseURL, Model: "test-model", APIKey: testKey, Provider: llm.ProviderGeneric}
	o := fastOptions()
	if mod != nil {
		mod(&p, &o)
	}
	c, err := llm.New(p, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func userReq(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are a test."},
		{Role: llm.RoleUser, Content: text},
	}}
}

func TestStreamTextReasoningAndUsage(t *testing.T) {
	for _, style := range []string{scripted.CacheFieldsBoth, scripted.CacheFieldsOpenAI, scripted.CacheFieldsDeepSeek} {
		t.Run(style, func(t *testing.T) {
			srv := scripted.Start(t, scripted.Reply{
				Reasoning: "Let me think about it.",
				Text:      "Hello **world**, here is the answer.",
				ChunkSize: 5,
				Usage:     &scripted.Usage{PromptTokens: 1200, CompletionTokens: 30, CachedTokens: 1024, ReasoningTokens: 6, CacheFields: style},
			})
			c := newClient(t, srv.URL(), nil)
			var tr transcript
			resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if resp.Content != "Hello **world**, here is the answer." || resp.ReasoningContent != "Let me think about it." {
				t.Fatalf("response = %+v", resp)
			}
			if tr.text.String() != resp.Content || tr.reasoning.String() != resp.ReasoningContent {
				t.Fatalf("events text %q reasoning %q", tr.text.String(), tr.reasoning.String())
			}
			textEvents := 0
			sawTextBeforeReasoning := false
			for _, e := range tr.events {
				switch e.Kind {
				case llm.EventText:
					textEvents++
				case llm.EventReasoning:
					if textEvents > 0 {
						sawTextBeforeReasoning = true
					}
				}
			}
			if textEvents < 5 || sawTextBeforeReasoning {
				t.Fatalf("want several text events after reasoning; got %d text events, text-before-reasoning=%v", textEvents, sawTextBeforeReasoning)
			}
			want := llm.Usage{PromptTokens: 1200, CompletionTokens: 30, CachedTokens: 1024, ReasoningTokens: 6, CacheReportedTokens: 1200}
			if resp.Usage != want {
				t.Fatalf("usage = %+v, want %+v", resp.Usage, want)
			}
			if resp.FinishReason != "stop" {
				t.Fatalf("finish = %q", resp.FinishReason)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || !reqs[0].Stream || !reqs[0].IncludeUsage || !reqs[0].HasAuth || reqs[0].Model != "test-model" {
				t.Fatalf("recorded = %+v", reqs)
			}
		})
	}
}

func TestToolCallArgumentsAssembledAcrossChunks(t *testing.T) {
	args1 := `{"path":"src/main.go","start":1,"end":40}`
	args2 := `{"command":"go test ./... -run 'TestX|TestY'"}`
	srv := scripted.Start(t, scripted.Reply{
		Text:      "I'll look.",
		ChunkSize: 3,
		ToolCalls: []scripted.ToolCall{
			{ID: "call_a", Name: "read_file", Arguments: args1},
			{ID: "call_b", Name: "run_shell", Arguments: args2},
		},
	})
	c := newClient(t, srv.URL(), nil)
	req := userReq("read it")
	req.Tools = []llm.ToolDef{{Name: "read_file", Description: "Read a file", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	resp, err := c.Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	want := []llm.ToolCall{{ID: "call_a", Name: "read_file", Arguments: args1}, {ID: "call_b", Name: "run_shell", Arguments: args2}}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0] != want[0] || resp.ToolCalls[1] != want[1] {
		t.Fatalf("tool calls = %+v", resp.ToolCalls)
	}
	if resp.FinishReason != "tool_calls" || resp.Content != "I'll look." {
		t.Fatalf("resp = %+v", resp)
	}
	rec := srv.Requests()[0]
	if len(rec.Tools) != 1 || rec.Tools[0].Name != "read_file" || !strings.Contains(string(rec.Tools[0].Parameters), `"path"`) {
		t.Fatalf("tools sent = %+v", rec.Tools)
	}

	// The follow-up request carries the calls and their results; the server
	// checks pairing like a real provider.
	srv.Enqueue(scripted.Reply{Text: "Done."})
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_a", Content: "package main"},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_b", Content: "ok"},
	)
	if _, err := c.Stream(context.Background(), req, nil); err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations: %v", v)
	}
}

func TestUnansweredToolCallRejectedLikeProvider(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "never served"})
	c := newClient(t, srv.URL(), nil)
	req := userReq("x")
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: "{}"}}},
		llm.Message{Role: llm.RoleUser, Content: "next"},
	)
	_, err := c.Stream(context.Background(), req, nil)
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || !strings.Contains(err.Error(), `"c1" has no tool result`) {
		t.Fatalf("err = %v", err)
	}
	if len(srv.Violations()) != 1 || srv.Pending() != 1 {
		t.Fatalf("violations %v pending %d", srv.Violations(), srv.Pending())
	}
}

func TestCancelMidStreamClosesConnection(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: strings.Repeat("word ", 400), ChunkSize: 5, ChunkDelay: 20 * time.Millisecond})
	c := newClient(t, srv.URL(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	start := time.Now()
	_, err := c.Stream(ctx, userReq("talk"), func(e llm.Event) {
		if e.Kind == llm.EventText {
			once.Do(cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %s", d)
	}
	if err := srv.WaitIdle(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	rec := srv.Requests()
	if len(rec) != 1 || !rec[0].ClientGone || rec[0].Outcome != "client_gone" {
		t.Fatalf("server did not see the client leave: %+v", rec[0])
	}
}

func TestRateLimitHonoursRetryAfterThenSucceeds(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "after the wait", Faults: []scripted.Fault{scripted.Status429("0.3")}})
	c := newClient(t, srv.URL(), nil)
	var tr transcript
	start := time.Now()
	resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("retried after %s, before Retry-After elapsed", d)
	}
	if resp.Content != "after the wait" || len(tr.retries) != 0 {
		t.Fatalf("resp %q, retries %v (nothing was streamed, so no EventRetry)", resp.Content, tr.retries)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Status != 429 || reqs[1].Attempt != 2 {
		t.Fatalf("requests: %+v", reqs)
	}
}

func TestRetryAfterBeyondLimitFailsAtOnce(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.Status429("3600")}})
	c := newClient(t, srv.URL(), func(_ *llm.Profile, o *llm.Options) { o.MaxRetryAfter = time.Minute })
	_, err := c.Stream(context.Background(), userReq("hi"), nil)
	var rl *llm.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != time.Hour || !errors.Is(err, llm.ErrRateLimited) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "retry after 1h0m0s") {
		t.Fatalf("message does not say when to retry: %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestServerErrorThenSuccess(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "recovered", Faults: []scripted.Fault{scripted.Status500(), scripted.StatusFault(503, "upstream overloaded")}})
	c := newClient(t, srv.URL(), nil)
	resp, err := c.Stream(context.Background(), userReq("hi"), nil)
	if err != nil || resp.Content != "recovered" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestBrokenStreamsRetriedWithEventRetry(t *testing.T) {
	cases := map[string]scripted.Fault{
		"reset":   scripted.ResetAfter(4),
		"no_done": scripted.NoDoneAfter(4),
	}
	for name, fault := range cases {
		t.Run(name, func(t *testing.T) {
			full := "The quick brown fox jumps over the lazy dog."
			srv := scripted.Start(t, scripted.Reply{Reasoning: "hmm", Text: full, ChunkSize: 4, Faults: []scripted.Fault{fault}})
			c := newClient(t, srv.URL(), nil)
			var tr transcript
			resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if len(tr.retries) != 1 || tr.retries[0].Attempt != 2 || tr.retries[0].Reason == "" {
				t.Fatalf("retries = %+v", tr.retries)
			}
			// The partial text came before the retry event.
			partial := ""
			for _, e := range tr.events {
				if e.Kind == llm.EventRetry {
					break
				}
				partial += e.Text
			}
			if partial == "" {
				t.Fatal("no partial output before the break: the fault did not fire mid-stream")
			}
			if resp.Content != full || tr.text.String() != full || tr.reasoning.String() != "hmm" {
				t.Fatalf("resp %q, consumer text %q reasoning %q", resp.Content, tr.text.String(), tr.reasoning.String())
			}
		})
	}
}

func TestCompleteStreamWithoutDoneAccepted(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "whole answer", OmitDone: true})
	c := newClient(t, srv.URL(), nil)
	resp, err := c.Stream(context.Background(), userReq("hi"), nil)
	if err != nil || resp.Content != "whole answer" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestRetryCapGivesClearError(t *testing.T) {
	t.Run("server errors", func(t *testing.T) {
		srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.Status500(), scripted.Status500(), scripted.Status500()}})
		c := newClient(t, srv.URL(), func(_ *llm.Profile, o *llm.Options) { o.MaxAttempts = 3 })
		_, err := c.Stream(context.Background(), userReq("hi"), nil)
		var re *llm.RetriesExhaustedError
		if !errors.As(err, &re) || re.Attempts != 3 || !strings.Contains(err.Error(), "HTTP 500") || !strings.Contains(err.Error(), "3 times") {
			t.Fatalf("err = %v", err)
		}
		if n := len(srv.Requests()); n != 3 {
			t.Fatalf("%d requests, want 3", n)
		}
	})
	t.Run("rate limited", func(t *testing.T) {
		srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{
			scripted.Status429("0.01"), scripted.Status429("0.01"), scripted.Status429("0.01")}})
		c := newClient(t, srv.URL(), func(_ *llm.Profile, o *llm.Options) { o.MaxAttempts = 3 })
		_, err := c.Stream(context.Background(), userReq("hi"), nil)
		var rl *llm.RateLimitError
		if !errors.As(err, &rl) || rl.Attempts != 3 || !strings.Contains(err.Error(), "rate limiting") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestHangTriggersIdleTimeoutAndRetry(t *testing.T) {
	for _, after := range []int{0, 3} {
		srv := scripted.Start(t, scripted.Reply{Text: "finally here", ChunkSize: 2, Faults: []scripted.Fault{scripted.HangAfter(after)}})
		c := newClient(t, srv.URL(), func(_ *llm.Profile, o *llm.Options) { o.IdleTimeout = 150 * time.Millisecond })
		var tr transcript
		start := time.Now()
		resp, err := c.Stream(context.Background(), userReq("hi"), tr.on)
		if err != nil || resp.Content != "finally here" {
			t.Fatalf("after=%d: resp %+v err %v", after, resp, err)
		}
		if d := time.Since(start); d < 150*time.Millisecond || d > 3*time.Second {
			t.Fatalf("after=%d: took %s", after, d)
		}
		if wantRetryEvent := after > 1; (len(tr.retries) == 1) != wantRetryEvent {
			t.Fatalf("after=%d: retries %+v", after, tr.retries)
		}
		if err := srv.WaitIdle(2 * time.Second); err != nil {
			t.Fatal(err)
		}
		if rec := srv.Requests()[0]; rec.Outcome != "hang" || !rec.ClientGone {
			t.Fatalf("after=%d: hung request %+v", after, rec)
		}
	}

	srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.HangAfter(1), scripted.HangAfter(1)}})
	c := newClient(t, srv.URL(), func(_ *llm.Profile, o *llm.Options) {
		o.IdleTimeout = 100 * time.Millisecond
		o.MaxAttempts = 2
	})
	_, err := c.Stream(context.Background(), userReq("hi"), nil)
	if !errors.Is(err, llm.ErrRetriesExhausted) || !strings.Contains(err.Error(), "no data from the model for 100ms") {
		t.Fatalf("err = %v", err)
	}
}

func TestAuthErrorNamesBaseURLAndHidesKey(t *testing.T) {
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{APIKey: "the-right-key"})
	c := newClient(t, srv.URL(), nil)
	_, err := c.Stream(context.Background(), userReq("hi"), nil)
	var ae *llm.AuthError
	if !errors.As(err, &ae) || ae.Status != 401 || !errors.Is(err, llm.ErrAuth) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, srv.URL()) || !strings.Contains(msg, "rejected") {
		t.Fatalf("message does not name the base URL: %s", msg)
	}
	if strings.Contains(msg, testKey) || !strings.Contains(msg, "[redacted]") {
		t.Fatalf("the server echoed the key and the message kept it: %s", msg)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("auth failures must not be retried: %d requests", n)
	}
}

func TestUnreachableHostNamed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := newClient(t, "http://"+addr+"/v1", nil)
	start := time.Now()
	_, err = c.Stream(context.Background(), userReq("hi"), nil)
	var ue *llm.UnreachableError
	if !errors.As(err, &ue) || ue.Host != addr || !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("message = %s", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("refused connection took %s: it should not be retried", d)
	}
}

func TestMissingAPIKeyCheckedBeforeRequest(t *testing.T) {
	// A non-loopback URL that would fail loudly if anything were sent.
	c, err := llm.New(llm.Profile{Name: "DeepSeek", BaseURL: "https://api.deepseek.com", Model: "deepseek-reasoner"}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Stream(context.Background(), userReq("hi"), nil)
	var mk *llm.MissingAPIKeyError
	if !errors.As(err, &mk) || !errors.Is(err, llm.ErrMissingAPIKey) || !strings.Contains(err.Error(), "https://api.deepseek.com") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 100*time.Millisecond {
		t.Fatal("missing key check made a network round trip")
	}

	// Local servers (Ollama, LM Studio) need no key, and none is sent.
	srv := scripted.Start(t, scripted.Reply{Text: "local ok"})
	lc := newClient(t, srv.URL(), func(p *llm.Profile, _ *llm.Options) { p.APIKey = "" })
	resp, err := lc.Stream(context.Background(), userReq("hi"), nil)
	if err != nil || resp.Content != "local ok" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if srv.Requests()[0].HasAuth {
		t.Fatal("an Authorization header was sent without a key")
	}
}

func TestToolsUnsupportedAndContextTooLong(t *testing.T) {
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{ToolsUnsupported: true})
	c := newClient(t, srv.URL(), nil)
	req := userReq("hi")
	req.Tools = []llm.ToolDef{{Name: "read_file", Parameters: []byte(`{"type":"object"}`)}}
	_, err := c.Stream(context.Background(), req, nil)
	var tu *llm.ToolsUnsupportedError
	if !errors.Is(err, llm.ErrToolsUnsupported) || !errors.As(err, &tu) || tu.Model != "test-model" {
		t.Fatalf("err = %v", err)
	}
	// The fallback (no tools) goes through.
	if _, err := c.Stream(context.Background(), userReq("hi"), nil); err != nil {
		t.Fatalf("without tools: %v", err)
	}

	srv.SetConfig(scripted.Config{ContextWindow: 10})
	_, err = c.Stream(context.Background(), userReq(strings.Repeat("long ", 100)), nil)
	if !errors.Is(err, llm.ErrContextTooLong) || !strings.Contains(err.Error(), "maximum context length is 10 tokens") {
		t.Fatalf("err = %v", err)
	}
}

func TestSessionHeaderSent(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "a"}, scripted.Reply{Text: "b"})
	c := newClient(t, srv.URL(), nil)
	req := userReq("hi")
	req.SessionID = "sess-42"
	if _, err := c.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stream(context.Background(), userReq("no session"), nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if reqs[0].Session != "sess-42" || reqs[0].Headers[http.CanonicalHeaderKey(llm.SessionHeader)] != "sess-42" || reqs[1].Session != "" {
		t.Fatalf("sessions: %q %q", reqs[0].Session, reqs[1].Session)
	}
	if reqs[0].Headers["Authorization"] != "[redacted]" {
		t.Fatalf("authorization recorded as %q", reqs[0].Headers["Authorization"])
	}
}
