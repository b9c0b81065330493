package providers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// dialectOf is the stream shape each preset's server sends: every preset
// has its own (scripted dialect.go and dialect_hosted.go cite where each
// was read), named after the preset.
func dialectOf(p Preset) scripted.Dialect {
	for _, d := range scripted.Dialects {
		if string(d) == p.ID {
			return d
		}
	}
	return scripted.DialectOpenAI
}

func TestEveryPresetHasItsOwnDialect(t *testing.T) {
	for _, p := range All() {
		if dialectOf(p) == scripted.DialectOpenAI {
			t.Errorf("preset %s is replayed in the generic OpenAI shape", p.ID)
		}
	}
}

// TestChatClientFollowsEachPreset runs GoVibe's own chat client, built
// from each preset, against the scripted server configured as that
// provider: a tool-call round with reasoning and a cache hit, then the
// follow-up request. The server enforces what the provider enforces
// (reasoning replay for DeepSeek and Moonshot, none for OpenAI, Mistral's
// 422 on fields it does not know), so a wrong convention fails the
// request, not just an assertion.
func TestChatClientFollowsEachPreset(t *testing.T) {
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) {
			const key = "sk-test"
			srv := scripted.Start(t)
			cfg := scripted.Config{APIKey: key, UsageUnasked: !p.IncludeUsage, Dialect: dialectOf(p)}
			switch {
			case p.ReasoningReplay == ReplayToolTurns:
				cfg.Provider = p.ID // deepseek, moonshot
			case p.Quirks == llm.ProviderOpenAI:
				cfg.Provider = "openai"
			case p.ID == "groq":
				cfg.Provider = "groq" // a replayed reasoning_content is a 400
			case p.ToolCallExtra:
				cfg.Provider = "gemini" // a call sent back without its signature is a 400
			}
			if !p.IncludeUsage {
				cfg.RejectFields = append(cfg.RejectFields, "stream_options")
			}
			if !p.ReasoningEffort {
				cfg.RejectFields = append(cfg.RejectFields, "reasoning_effort")
			}
			srv.SetConfig(cfg)
			usage := &scripted.Usage{PromptTokens: 900, CompletionTokens: 20, CachedTokens: 640, CacheFields: wire[p.ID].CacheStyle}
			first := scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: `{"path":"a.go"}`}}, Usage: usage}
			const signature = `{"google":{"thought_signature":"CrICAdHtim827fQ"}}`
			if p.ToolCallExtra {
				first.ToolCalls[0].Extra = signature
			}
			if p.ReasoningField != "" {
				first.Reasoning, first.ReasoningField = "look at a.go first", p.ReasoningField
			}
			srv.Enqueue(first, scripted.Reply{Text: "done", Usage: usage})

			prof := p.Profile("m1", key)
			prof.BaseURL = srv.URL()
			prof.ReasoningEffort = "high"
			c, err := llm.New(prof, llm.Options{MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			msgs := []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: "read a.go"}}
			tools := []llm.ToolDef{{Name: "read_file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
			r1, err := c.Stream(context.Background(), llm.Request{Messages: msgs, Tools: tools}, nil)
			if err != nil {
				t.Fatalf("first request: %v", err)
			}
			if len(r1.ToolCalls) != 1 || r1.ToolCalls[0].Name != "read_file" || r1.ToolCalls[0].Arguments != `{"path":"a.go"}` {
				t.Errorf("tool calls = %+v", r1.ToolCalls)
			}
			if want := first.Reasoning; r1.ReasoningContent != want {
				t.Errorf("reasoning = %q, want %q (field %q)", r1.ReasoningContent, want, p.ReasoningField)
			}
			wantCached := int64(640)
			if wire[p.ID].CacheStyle == scripted.CacheFieldsNone {
				wantCached = 0
			}
			if r1.Usage.PromptTokens != 900 || r1.Usage.CachedTokens != wantCached {
				t.Errorf("usage = %+v, want 900 prompt and %d cached (field %q)", r1.Usage, wantCached, p.CacheField)
			}

			msgs = append(msgs,
				llm.Message{Role: llm.RoleAssistant, ReasoningContent: r1.ReasoningContent, ToolCalls: r1.ToolCalls},
				llm.Message{Role: llm.RoleTool, ToolCallID: r1.ToolCalls[0].ID, Content: "package a"})
			if _, err := c.Stream(context.Background(), llm.Request{Messages: msgs, Tools: tools}, nil); err != nil {
				t.Fatalf("follow-up request: %v", err)
			}

			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			for i, r := range reqs {
				if r.IncludeUsage != p.IncludeUsage {
					t.Errorf("request %d: include_usage = %v, want %v", i, r.IncludeUsage, p.IncludeUsage)
				}
				var body map[string]any
				_ = json.Unmarshal(r.Body, &body)
				if _, sent := body["reasoning_effort"]; sent != p.ReasoningEffort {
					t.Errorf("request %d: reasoning_effort sent = %v, want %v", i, sent, p.ReasoningEffort)
				}
				for k, v := range p.Headers {
					if got := r.Headers[http.CanonicalHeaderKey(k)]; got != v {
						t.Errorf("request %d: header %s = %q, want %q", i, k, got, v)
					}
				}
			}
			if got := reqs[1].Messages[2].ToolCalls[0].Extra; p.ToolCallExtra && got != signature {
				t.Errorf("the call came back with extra_content %q, want %q", got, signature)
			} else if !p.ToolCallExtra && got != "" {
				t.Errorf("extra_content sent to %s: %q", p.ID, got)
			}
			replayed := reqs[1].Messages[2].ReasoningContent
			if wantReplay := p.ReasoningReplay == ReplayToolTurns; (replayed != nil) != wantReplay {
				t.Errorf("reasoning replayed = %v, want %v", replayed != nil, wantReplay)
			} else if wantReplay && *replayed != first.Reasoning {
				t.Errorf("replayed reasoning = %q", *replayed)
			}
		})
	}
}

// TestStrictServerRejectsWhatThePresetLeavesOut shows the conventions
// matter: the same client without Mistral's wire gets Mistral's 422.
func TestStrictServerRejectsWhatThePresetLeavesOut(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "x"})
	srv.SetConfig(scripted.Config{RejectFields: []string{"stream_options"}, UsageUnasked: true})
	p, _ := Get("mistral")
	prof := p.Profile("m1", "k")
	prof.BaseURL = srv.URL()
	prof.Wire = llm.Wire{} // the client's defaults: stream_options sent
	c, _ := llm.New(prof, llm.Options{MaxAttempts: 1})
	_, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if err == nil {
		t.Fatal("a strict server accepted stream_options")
	}
	prof.Wire = p.Wire()
	c, _ = llm.New(prof, llm.Options{MaxAttempts: 1})
	resp, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if err != nil || resp.Usage.PromptTokens == 0 {
		t.Fatalf("with the preset's wire: resp=%+v err=%v (usage must arrive unasked)", resp, err)
	}
}

func TestDetectFindsHostedPresetsOnly(t *testing.T) {
	for url, want := range map[string]string{
		"https://api.moonshot.cn/v1":                        "moonshot",
		"https://openrouter.ai/api/v1":                      "openrouter",
		"https://API.DEEPSEEK.COM":                          "deepseek",
		"http://localhost:11434/v1":                         "",
		"https://gateway.example.com/deepseek/v1":           "",
		"::not a url":                                       "",
		"https://dashscope.aliyuncs.com/compatible-mode/v1": "qwen",
		"https://api.together.ai/v1":                        "together",
		"https://api.z.ai/api/paas/v4":                      "zhipu",
	} {
		p, ok := Detect(url)
		if got := map[bool]string{true: p.ID}[ok]; got != want {
			t.Errorf("Detect(%q) = %q, want %q", url, got, want)
		}
	}
}

// TestChatClientRecognisesEachContextLengthError: every provider's own
// context-length body reaches the chat client as ContextTooLongError, so
// the run compacts and retries once (agent.Run.OverflowCompact) whatever
// the provider's wording.
func TestChatClientRecognisesEachContextLengthError(t *testing.T) {
	for _, p := range All() {
		for _, pe := range wire[p.ID].Errors {
			if pe.Kind != KindContextLength {
				continue
			}
			srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.StatusFault(pe.Status, pe.Body)}})
			prof := p.Profile("m1", "k")
			prof.BaseURL, prof.ContextWindow = srv.URL(), 64000
			c, _ := llm.New(prof, llm.Options{MaxAttempts: 1})
			_, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
			var ctl *llm.ContextTooLongError
			if !errors.As(err, &ctl) {
				t.Errorf("%s: %v is not a context-length error", p.ID, err)
				continue
			}
			if ctl.Window != 64000 || ctl.Detail == "" {
				t.Errorf("%s: %+v", p.ID, ctl)
			}
			w, r := ContextCounts(ctl.Detail)
			if ctl.ProviderWindow > 0 {
				w, r = ctl.ProviderWindow, ctl.Requested
			}
			if w != pe.Window || r != pe.Requested {
				t.Errorf("%s: counts from %q = %d/%d, want %d/%d", p.ID, ctl.Detail, w, r, pe.Window, pe.Requested)
			}
		}
	}
}
