package llm

import "github.com/tidwall/gjson"

// Usage is token accounting for one request, normalised across providers;
// summed (Add), the accounting of a turn or a session.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// CachedTokens is the part of PromptTokens the provider served from
	// its prompt cache.
	CachedTokens    int64 `json:"cached_tokens"`
	ReasoningTokens int64 `json:"reasoning_tokens,omitempty"`
	// CacheReportedTokens is the part of PromptTokens whose provider said
	// how much of it hit the cache (all of it when every request's usage
	// carried a cache field). A provider that reports nothing leaves it 0:
	// its hit rate is unknown, never 0% (CacheShare).
	CacheReportedTokens int64 `json:"cache_reported_tokens,omitempty"`
	// Cost is what the request cost at the profile's prices when it was
	// made (a later price change does not rewrite history). The client
	// never fills it; the engine's accounting does, and sets Priced when
	// the profile has prices: without them the cost is unknown and only
	// tokens are shown.
	Cost   float64 `json:"cost,omitempty"`
	Priced bool    `json:"priced,omitempty"`
	// Miss says why this request's prompt cache missed, when the
	// accounting could tell (package usage). A message's sum carries the
	// first miss among its requests (later requests of one run extend
	// the prefix the first one sent), so the live usage line and the
	// stored one name the same cause; session totals carry none.
	Miss CacheMiss `json:"cache_miss,omitzero"`
}

// CacheMiss is why one request lost (part of) the provider's prompt cache:
// a Miss* cause and what it concerns (a system prompt section, the tools
// added or removed, the message rewritten).
type CacheMiss struct {
	Cause  string `json:"cause"`
	Detail string `json:"detail,omitempty"`
	// Message is the index of the first request message that changed
	// (0 is the system prompt), for MissRewritten and MissCompaction.
	Message int `json:"message,omitempty"`
}

// Cache-miss causes (CacheMiss.Cause).
const (
	MissCompaction = "compaction"
	MissTools      = "tools_changed"
	MissSystem     = "system_changed"
	MissModel      = "model_switched"
	MissRewritten  = "message_rewritten"
	MissEvicted    = "provider_evicted"
)

// Add accumulates u2, a later request, into u. The first miss named is
// kept.
func (u *Usage) Add(u2 Usage) {
	if u.Miss.Cause == "" {
		u.Miss = u2.Miss
	}
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.CachedTokens += u2.CachedTokens
	u.ReasoningTokens += u2.ReasoningTokens
	u.CacheReportedTokens += u2.CacheReportedTokens
	u.Cost += u2.Cost
	u.Priced = u.Priced || u2.Priced
}

// Sub is u minus an earlier total (what happened since before).
func (u Usage) Sub(before Usage) Usage {
	return Usage{
		PromptTokens:        u.PromptTokens - before.PromptTokens,
		CompletionTokens:    u.CompletionTokens - before.CompletionTokens,
		CachedTokens:        u.CachedTokens - before.CachedTokens,
		ReasoningTokens:     u.ReasoningTokens - before.ReasoningTokens,
		CacheReportedTokens: u.CacheReportedTokens - before.CacheReportedTokens,
		Cost:                u.Cost - before.Cost,
		// A session priced before stays priced; a turn is priced when its
		// requests cost something or the session has prices.
		Priced: u.Priced,
	}
}

// cacheBase is the prompt tokens whose cache figure is known. Usage
// recorded before CacheReportedTokens existed has none; a hit it counted
// was reported, so its whole prompt counts then.
func (u Usage) cacheBase() int64 {
	if u.CacheReportedTokens > 0 {
		return u.CacheReportedTokens
	}
	if u.CachedTokens > 0 {
		return u.PromptTokens
	}
	return 0
}

// CacheShare is the part of the prompt (0..1) the provider served from
// its cache, and whether it is known at all.
func (u Usage) CacheShare() (float64, bool) {
	base := u.cacheBase()
	if base <= 0 {
		return 0, false
	}
	return min(1, float64(u.CachedTokens)/float64(base)), true
}

// Uncached is the prompt tokens the provider processed afresh, when it
// said how many hit its cache.
func (u Usage) Uncached() (int64, bool) {
	if u.cacheBase() <= 0 {
		return 0, false
	}
	return max(0, u.PromptTokens-u.CachedTokens), true
}

// chunkUsage is the usage object of a stream's last chunk as providers
// send it. Each reports its prompt cache its own way; a pointer is nil
// when the field is absent (or null), which is how "the provider said
// nothing" differs from "nothing hit":
//
//   - OpenAI (and Qwen, Zhipu, Groq, OpenRouter, vLLM):
//     usage.prompt_tokens_details.cached_tokens
//     (platform.openai.com/docs/api-reference/chat/object, "usage";
//     platform.openai.com/docs/guides/prompt-caching).
//   - DeepSeek: usage.prompt_cache_hit_tokens and
//     usage.prompt_cache_miss_tokens, which add up to prompt_tokens
//     (api-docs.deepseek.com/api/create-chat-completion, "usage";
//     api-docs.deepseek.com/guides/kv_cache).
//   - Moonshot (Kimi): a top-level usage.cached_tokens, inside the finish
//     chunk's choice when streaming (platform.moonshot.ai/docs/api/chat,
//     "usage"; its context-caching guide).
//   - Together, Mistral, Gemini's compatible endpoint, Ollama, LM Studio,
//     llama.cpp: no cache field (their presets declare none).
type chunkUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptCacheHitTokens *int64 `json:"prompt_cache_hit_tokens"`
	// CachedTokens is Moonshot's top-level usage.cached_tokens.
	CachedTokens *int64 `json:"cached_tokens"`
}

// decodeUsage reads a usage object as encoding/json would into
// chunkUsage (decodeChunk's rule).
func decodeUsage(v gjson.Result, u *chunkUsage) {
	eachField(v, func(k string, v gjson.Result) {
		switch k {
		case "prompt_tokens":
			u.PromptTokens = jsonInt(v, u.PromptTokens)
		case "completion_tokens":
			u.CompletionTokens = jsonInt(v, u.CompletionTokens)
		case "prompt_cache_hit_tokens":
			u.PromptCacheHitTokens = jsonIntPtr(v, u.PromptCacheHitTokens)
		case "cached_tokens":
			u.CachedTokens = jsonIntPtr(v, u.CachedTokens)
		case "prompt_tokens_details":
			eachField(v, func(k string, v gjson.Result) {
				if k == "cached_tokens" {
					u.PromptTokensDetails.CachedTokens = jsonIntPtr(v, u.PromptTokensDetails.CachedTokens)
				}
			})
		case "completion_tokens_details":
			eachField(v, func(k string, v gjson.Result) {
				if k == "reasoning_tokens" {
					u.CompletionTokensDetails.ReasoningTokens = jsonInt(v, u.CompletionTokensDetails.ReasoningTokens)
				}
			})
		}
	})
}

// jsonIntPtr is encoding/json's reading of v into a *int64 holding old:
// null clears it; any other value allocates it, and an integer sets it.
func jsonIntPtr(v gjson.Result, old *int64) *int64 {
	if v.Type == gjson.Null {
		return nil
	}
	p := old
	if p == nil {
		p = new(int64)
	}
	*p = jsonInt(v, *p)
	return p
}

func (u *chunkUsage) usage() Usage { return u.usageFrom("") }

// usageFrom normalises the usage object, reading cached prompt tokens
// from cacheField (Wire.CacheField) or, when that is empty, from the first
// known field present with a non-zero count (else the first present). The
// cache figure counts as reported only when its field was there.
func (u *chunkUsage) usageFrom(cacheField string) Usage {
	out := Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		ReasoningTokens:  u.CompletionTokensDetails.ReasoningTokens,
	}
	var cached *int64
	switch cacheField {
	case CacheFieldOpenAI:
		cached = u.PromptTokensDetails.CachedTokens
	case CacheFieldDeepSeek:
		cached = u.PromptCacheHitTokens
	case CacheFieldMoonshot:
		cached = u.CachedTokens
	default:
		for _, p := range []*int64{u.PromptTokensDetails.CachedTokens, u.PromptCacheHitTokens, u.CachedTokens} {
			if p != nil && (cached == nil || *cached == 0) {
				cached = p
			}
		}
	}
	if cached != nil {
		out.CachedTokens = *cached
		out.CacheReportedTokens = out.PromptTokens
	}
	return out
}
