package providers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestParallelToolCallsInEachDialect: two tool calls in one reply, in the
// stream shape of every dialect (whole calls in one delta for Ollama and
// Mistral, a header then argument pieces elsewhere, cut into 3-rune
// pieces), reach the agent as two calls with their own ids and
// arguments, with the reasoning and the usage read.
func TestParallelToolCallsInEachDialect(t *testing.T) {
	for _, d := range scripted.Dialects {
		name := string(d)
		if name == "" {
			name = "openai"
		}
		t.Run(name, func(t *testing.T) {
			p, err := Get(map[scripted.Dialect]string{"": "openai"}[d] + string(d)) // the dialect's preset
			if err != nil {
				t.Fatal(err)
			}
			srv := scripted.Start(t)
			srv.SetConfig(scripted.Config{Dialect: d, UsageUnasked: !p.IncludeUsage})
			reply := scripted.Reply{ChunkSize: 3, ToolCalls: []scripted.ToolCall{
				{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
				{ID: "call_b", Name: "read_file", Arguments: `{"path":"b.go"}`},
			}, Usage: &scripted.Usage{PromptTokens: 500, CompletionTokens: 30, CachedTokens: 256, CacheFields: wire[p.ID].CacheStyle}}
			if p.ReasoningField != "" {
				reply.Reasoning, reply.ReasoningField = "both files", p.ReasoningField
			}
			srv.Enqueue(reply)
			prof := p.Profile("m1", "k")
			prof.BaseURL = srv.URL()
			c, err := llm.New(prof, llm.Options{MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			tools := []llm.ToolDef{{Name: "read_file", Parameters: json.RawMessage(`{"type":"object"}`)}}
			r, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "read both"}}, Tools: tools}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.ToolCalls) != 2 || r.ToolCalls[0].ID != "call_a" || r.ToolCalls[1].ID != "call_b" ||
				r.ToolCalls[0].Arguments != `{"path":"a.go"}` || r.ToolCalls[1].Arguments != `{"path":"b.go"}` {
				t.Fatalf("tool calls = %+v", r.ToolCalls)
			}
			if r.ReasoningContent != reply.Reasoning {
				t.Errorf("reasoning = %q, want %q", r.ReasoningContent, reply.Reasoning)
			}
			if r.Usage.PromptTokens != 500 || r.Usage.CompletionTokens != 30 {
				t.Errorf("usage = %+v", r.Usage)
			}
			if r.FinishReason != "tool_calls" {
				t.Errorf("finish = %q", r.FinishReason)
			}
		})
	}
}

// TestLegacyLlamaCppUsageOnTheFinishChunk: llama.cpp servers before PR
// #16052 ignored stream_options and sent usage (and timings) on the
// finish chunk, beside a choice. The client reads it there too.
func TestLegacyLlamaCppUsageOnTheFinishChunk(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "ok", Usage: &scripted.Usage{PromptTokens: 71, CompletionTokens: 2, CacheFields: scripted.CacheFieldsNone}})
	srv.SetConfig(scripted.Config{Dialect: scripted.DialectLlamaCpp, UsageUnasked: true})
	p, _ := Get("llamacpp")
	prof := p.Profile("m1", "")
	prof.BaseURL = srv.URL()
	prof.Wire.NoStreamUsage = true // not asked: the old server sends it anyway
	c, _ := llm.New(prof, llm.Options{MaxAttempts: 1})
	r, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "ok" || r.Usage.PromptTokens != 71 || r.Usage.CompletionTokens != 2 {
		t.Fatalf("response = %+v", r)
	}
	if srv.Requests()[0].IncludeUsage {
		t.Fatal("the request asked for usage")
	}
}

// TestGroqRejectsAReplayedReasoning: Groq answers 400 to an assistant
// message carrying reasoning_content, so its preset never replays it.
func TestGroqRejectsAReplayedReasoning(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "a"}, scripted.Reply{Text: "b"})
	srv.SetConfig(scripted.Config{Provider: "groq", Dialect: scripted.DialectGroq})
	p, _ := Get("groq")
	history := []llm.Message{
		{Role: llm.RoleUser, Content: "read a.go"},
		{Role: llm.RoleAssistant, ReasoningContent: "thought", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Role: llm.RoleTool, ToolCallID: "call_1", Content: "package a"},
	}
	for _, tc := range []struct {
		name   string
		replay string
		ok     bool
	}{{"preset", p.ReasoningReplay, true}, {"replaying", llm.ReplayToolTurns, false}} {
		prof := p.Profile("m1", "k")
		prof.BaseURL = srv.URL()
		prof.Wire.ReasoningReplay = tc.replay
		if !tc.ok {
			// The documented 400 names reasoning_content.
			prof.Wire.ReasoningField = "reasoning_content"
		}
		c, _ := llm.New(prof, llm.Options{MaxAttempts: 1})
		_, err := c.Stream(context.Background(), llm.Request{Messages: history}, nil)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}

// TestGeminiThoughtSignatureRoundTrip: the signature Gemini puts on a
// function call is kept on the call (through the model track's JSON) and
// sent back only on Gemini's wire; without it Gemini answers 400, and a
// provider switched to mid-session never sees the field.
func TestGeminiThoughtSignatureRoundTrip(t *testing.T) {
	const sig = `{"google":{"thought_signature":"CrICAdHtim827fQ"}}`
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{Provider: "gemini"})
	srv.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`, Extra: sig}}},
		scripted.Reply{Text: "done"}, scripted.Reply{Text: "never"}, scripted.Reply{Text: "deepseek"})
	gemini, _ := Get("gemini")
	prof := gemini.Profile("gemini-3-pro-preview", "k")
	prof.BaseURL = srv.URL()
	c, _ := llm.New(prof, llm.Options{MaxAttempts: 1})
	ctx := context.Background()
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "read a.go"}}
	tools := []llm.ToolDef{{Name: "read_file", Parameters: json.RawMessage(`{"type":"object"}`)}}
	r, err := c.Stream(ctx, llm.Request{Messages: msgs, Tools: tools}, nil)
	if err != nil || len(r.ToolCalls) != 1 || r.ToolCalls[0].Extra != sig {
		t.Fatalf("first reply: %+v %v", r, err)
	}
	// The model track is stored as JSON: the signature must survive it.
	b, _ := json.Marshal(llm.Message{Role: llm.RoleAssistant, ToolCalls: r.ToolCalls})
	var stored llm.Message
	if err := json.Unmarshal(b, &stored); err != nil || stored.ToolCalls[0].Extra != sig {
		t.Fatalf("stored: %s %v", b, err)
	}
	msgs = append(msgs, stored, llm.Message{Role: llm.RoleTool, ToolCallID: "call_1", Content: "package a"})
	if _, err := c.Stream(ctx, llm.Request{Messages: msgs, Tools: tools}, nil); err != nil {
		t.Fatalf("with the signature sent back: %v", err)
	}
	// Without Gemini's wire the call goes back bare, and Gemini refuses it.
	bare := prof
	bare.Wire.ToolCallExtra = false
	cb, _ := llm.New(bare, llm.Options{MaxAttempts: 1})
	if _, err := cb.Stream(ctx, llm.Request{Messages: msgs, Tools: tools}, nil); err == nil || !strings.Contains(err.Error(), "thought_signature") {
		t.Fatalf("a bare call was accepted: %v", err)
	}
	// Switched to DeepSeek mid-session: the field is not sent there.
	ds, _ := Get("deepseek")
	dprof := ds.Profile("deepseek-chat", "k")
	dprof.BaseURL = srv.URL()
	srv.SetConfig(scripted.Config{})
	cd, _ := llm.New(dprof, llm.Options{MaxAttempts: 1})
	if _, err := cd.Stream(ctx, llm.Request{Messages: msgs, Tools: tools}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; strings.Contains(string(last.Body), "extra_content") {
		t.Fatalf("extra_content sent to DeepSeek: %s", last.Body)
	}
}
