package llm_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Recorded exchanges: the last chunks of a streamed reply as each
// provider's documentation shows them, field for field. Each provider
// reports its prompt cache its own way; a provider that reports nothing
// must read as "unknown", never as a 0% hit.
var usageExchanges = []struct {
	name, doc, cacheField string
	body                  string
	want                  llm.Usage
	share                 float64
	known                 bool
}{{
	name:       "openai",
	doc:        "https://platform.openai.com/docs/api-reference/chat/object (usage); https://platform.openai.com/docs/guides/prompt-caching",
	cacheField: llm.CacheFieldOpenAI,
	body: sseOf(
		`{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_b705f0c291","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_b705f0c291","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}`,
		`{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_b705f0c291","choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`,
	),
	want:  llm.Usage{PromptTokens: 2006, CompletionTokens: 300, CachedTokens: 1920, CacheReportedTokens: 2006},
	share: 1920.0 / 2006, known: true,
}, {
	name:       "deepseek",
	doc:        "https://api-docs.deepseek.com/api/create-chat-completion (usage); https://api-docs.deepseek.com/guides/kv_cache",
	cacheField: llm.CacheFieldDeepSeek,
	body: sseOf(
		`{"id":"1f633d8bfc032625086f14113c411638","choices":[{"index":0,"delta":{"content":"Hello","reasoning_content":null},"logprobs":null,"finish_reason":null}],"created":1718345013,"model":"deepseek-chat","system_fingerprint":"fp_a49d71b8a1","object":"chat.completion.chunk","usage":null}`,
		`{"id":"1f633d8bfc032625086f14113c411638","choices":[{"index":0,"delta":{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"stop"}],"created":1718345013,"model":"deepseek-chat","system_fingerprint":"fp_a49d71b8a1","object":"chat.completion.chunk","usage":{"prompt_tokens":1536,"completion_tokens":12,"total_tokens":1548,"prompt_tokens_details":{"cached_tokens":1280},"prompt_cache_hit_tokens":1280,"prompt_cache_miss_tokens":256}}`,
	),
	want:  llm.Usage{PromptTokens: 1536, CompletionTokens: 12, CachedTokens: 1280, CacheReportedTokens: 1536},
	share: 1280.0 / 1536, known: true,
}, {
	// DeepSeek's cold cache: the field is there and says 0, a real 0% hit.
	name:       "deepseek cold",
	doc:        "https://api-docs.deepseek.com/guides/kv_cache (first request: prompt_cache_hit_tokens 0)",
	cacheField: llm.CacheFieldDeepSeek,
	body: sseOf(
		`{"id":"x","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}],"created":1718345013,"model":"deepseek-chat","object":"chat.completion.chunk","usage":{"prompt_tokens":1536,"completion_tokens":2,"total_tokens":1538,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":1536}}`,
	),
	want:  llm.Usage{PromptTokens: 1536, CompletionTokens: 2, CacheReportedTokens: 1536},
	share: 0, known: true,
}, {
	// Moonshot streams usage inside the finish chunk's choice, with the
	// cache figure at the top level of usage.
	name:       "moonshot",
	doc:        "https://platform.moonshot.ai/docs/api/chat (usage, streaming); https://platform.moonshot.ai/docs/guide/use-context-caching-feature-of-kimi-api",
	cacheField: llm.CacheFieldMoonshot,
	body: sseOf(
		`{"id":"chatcmpl-6810567267ee141b4630dccb","object":"chat.completion.chunk","created":1745901170,"model":"kimi-k2-0711-preview","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-6810567267ee141b4630dccb","object":"chat.completion.chunk","created":1745901170,"model":"kimi-k2-0711-preview","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":3000,"completion_tokens":21,"total_tokens":3021,"cached_tokens":2048}}]}`,
	),
	want:  llm.Usage{PromptTokens: 3000, CompletionTokens: 21, CachedTokens: 2048, CacheReportedTokens: 3000},
	share: 2048.0 / 3000, known: true,
}, {
	// Mistral's usage has no cache field at all: unknown, not 0%.
	name: "mistral (no cache field)",
	doc:  "https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post (UsageInfo)",
	body: sseOf(
		`{"id":"cf79f7daaee244b1a0ae5c7b1444424a","object":"chat.completion.chunk","created":1711443467,"model":"mistral-large-latest","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":700,"total_tokens":705,"completion_tokens":5}}`,
	),
	want:  llm.Usage{PromptTokens: 700, CompletionTokens: 5},
	known: false,
}}

func sseOf(events ...string) string { return sse(append(events, "[DONE]")...) }

func TestUsageRecordedExchanges(t *testing.T) {
	for _, x := range usageExchanges {
		t.Run(x.name, func(t *testing.T) {
			srv, _ := rawSSE(t, x.body)
			c := newClient(t, srv.URL, func(p *llm.Profile, _ *llm.Options) { p.Wire.CacheField = x.cacheField })
			resp, err := c.Stream(context.Background(), userReq("hi"), func(llm.Event) {})
			if err != nil {
				t.Fatalf("Stream: %v (doc: %s)", err, x.doc)
			}
			if resp.Usage != x.want {
				t.Fatalf("usage = %+v, want %+v (doc: %s)", resp.Usage, x.want, x.doc)
			}
			share, known := resp.Usage.CacheShare()
			if known != x.known || share != x.share {
				t.Fatalf("cache share = %v known %v, want %v known %v", share, known, x.share, x.known)
			}
			if unc, ok := resp.Usage.Uncached(); ok != x.known || (ok && unc != x.want.PromptTokens-x.want.CachedTokens) {
				t.Fatalf("uncached = %d %v", unc, ok)
			}
		})
	}
}

// A sum keeps "unknown" apart from "0%": a session where one provider
// reported and another did not has a share over the reported part only.
func TestUsageShareOverReportedPart(t *testing.T) {
	var s llm.Usage
	s.Add(llm.Usage{PromptTokens: 1000, CachedTokens: 800, CacheReportedTokens: 1000})
	s.Add(llm.Usage{PromptTokens: 5000}) // a provider that said nothing
	if share, ok := s.CacheShare(); !ok || share != 0.8 {
		t.Fatalf("share = %v %v, want 0.8 over the reported part", share, ok)
	}
	var none llm.Usage
	none.Add(llm.Usage{PromptTokens: 5000})
	if _, ok := none.CacheShare(); ok {
		t.Fatal("a session whose provider never reported a cache figure has a known share")
	}
	turn := s.Sub(llm.Usage{PromptTokens: 1000, CachedTokens: 800, CacheReportedTokens: 1000})
	if _, ok := turn.CacheShare(); ok {
		t.Fatalf("turn %+v with only unreported requests has a known share", turn)
	}
}
