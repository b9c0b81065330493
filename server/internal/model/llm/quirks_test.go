package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// toolLoopConversation has a finished tool-using turn, a plain turn, and a
// tool loop in progress.
func toolLoopConversation() []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Content: "sys"},
		{Role: llm.RoleUser, Content: "turn 1"},
		{Role: llm.RoleAssistant, ReasoningContent: "r1", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: "A"},
		{Role: llm.RoleAssistant, ReasoningContent: "r2", Content: "turn 1 answer"},
		{Role: llm.RoleUser, Content: "turn 2"},
		{Role: llm.RoleAssistant, ReasoningContent: "r3", Content: "turn 2 answer, no tools"},
		{Role: llm.RoleUser, Content: "turn 3"},
		{Role: llm.RoleAssistant, ReasoningContent: "r4", ToolCalls: []llm.ToolCall{{ID: "c2", Name: "read_file", Arguments: `{"path":"b"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c2", Content: "B"},
	}
}

func TestDeepSeekGetsReasoningBackOthersDoNot(t *testing.T) {
	cases := []struct {
		provider string
		want     map[int]string // message index -> reasoning_content expected
	}{
		// Every assistant message of a turn that used tools carries it;
		// the plain turn (index 6) does not.
		{llm.ProviderDeepSeek, map[int]string{2: "r1", 4: "r2", 8: "r4"}},
		{llm.ProviderOpenAI, map[int]string{}},
		{llm.ProviderGeneric, map[int]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.provider, func(t *testing.T) {
			srv := scripted.Start(t, scripted.Reply{Reasoning: "r5", Text: "done"})
			// The server enforces the provider's rule and answers 400 on
			// violation, exactly as DeepSeek / OpenAI do.
			srvProvider := tc.provider
			if srvProvider == llm.ProviderGeneric {
				srvProvider = ""
			}
			srv.SetConfig(scripted.Config{Provider: srvProvider})
			c := newClient(t, srv.URL(), func(p *llm.Profile, _ *llm.Options) { p.Provider = tc.provider })
			req := llm.Request{Messages: toolLoopConversation(), Tools: []llm.ToolDef{{Name: "read_file"}}}
			if _, err := c.Stream(context.Background(), req, nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			rec := srv.Requests()[0]
			for i, m := range rec.Messages {
				want, ok := tc.want[i]
				switch {
				case ok && (m.ReasoningContent == nil || *m.ReasoningContent != want):
					t.Errorf("message %d: reasoning_content = %v, want %q", i, m.ReasoningContent, want)
				case !ok && m.ReasoningContent != nil:
					t.Errorf("message %d (%s): unexpected reasoning_content %q", i, m.Role, *m.ReasoningContent)
				}
			}
			if v := srv.Violations(); len(v) != 0 {
				t.Fatalf("violations: %v", v)
			}
		})
	}
}

func TestDeepSeekServerRejectsMissingReasoning(t *testing.T) {
	// A generic-profile client talking to a real DeepSeek thinking endpoint
	// gets DeepSeek's 400, surfaced with the provider's wording.
	srv := scripted.Start(t, scripted.Reply{Text: "never"})
	srv.SetConfig(scripted.Config{Provider: "deepseek"})
	c := newClient(t, srv.URL(), nil)
	_, err := c.Stream(context.Background(), llm.Request{Messages: toolLoopConversation()}, nil)
	if err == nil || !strings.Contains(err.Error(), "Missing `reasoning_content` field in the assistant message at message index 2") {
		t.Fatalf("err = %v", err)
	}
}

func TestMaxTokensParameterPerProvider(t *testing.T) {
	for provider, field := range map[string]string{
		llm.ProviderOpenAI:   "max_completion_tokens",
		llm.ProviderDeepSeek: "max_tokens",
		llm.ProviderGeneric:  "max_tokens",
	} {
		srv := scripted.Start(t, scripted.Reply{Text: "ok"})
		c := newClient(t, srv.URL(), func(p *llm.Profile, _ *llm.Options) {
			p.Provider = provider
			p.MaxOutputTokens = 777
		})
		if _, err := c.Stream(context.Background(), userReq("hi"), nil); err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
			t.Fatal(err)
		}
		if body[field] != float64(777) || len(body) == 0 {
			t.Fatalf("%s: body %v lacks %s=777", provider, body, field)
		}
		other := map[string]string{"max_tokens": "max_completion_tokens", "max_completion_tokens": "max_tokens"}[field]
		if _, ok := body[other]; ok {
			t.Fatalf("%s: body has both %s and %s", provider, field, other)
		}
	}
}

func TestAPIKeyNeverLogged(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	logger := zap.New(core)

	ok := scripted.Start(t,
		scripted.Reply{Text: "fine", Faults: []scripted.Fault{scripted.ResetAfter(2), scripted.Status429("0.01")}},
	)
	bad := scripted.Start(t)
	bad.SetConfig(scripted.Config{APIKey: "another-key"})

	var errs []error
	for _, url := range []string{ok.URL(), bad.URL()} {
		c := newClient(t, url, func(_ *llm.Profile, o *llm.Options) { o.Logger = logger })
		req := userReq("hi")
		req.SessionID = "s1"
		_, err := c.Stream(context.Background(), req, nil)
		errs = append(errs, err)
	}
	if errs[0] != nil || errs[1] == nil {
		t.Fatalf("errors = %v", errs)
	}
	if logs.Len() < 4 {
		t.Fatalf("expected debug and retry logs, got %d entries", logs.Len())
	}
	for _, e := range logs.All() {
		line := fmt.Sprintf("%s %v", e.Message, e.ContextMap())
		for _, secret := range []string{testKey, "Authorization", "Bearer"} {
			if strings.Contains(line, secret) {
				t.Fatalf("log entry leaks %q: %s", secret, line)
			}
		}
	}
	for _, err := range errs {
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Fatalf("error leaks the key: %v", err)
		}
	}
}
