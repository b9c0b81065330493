package providers

import "github.com/govibe/govibe/server/internal/model/llm"

// Cache-field paths inside the usage object.
const (
	cacheOpenAI   = llm.CacheFieldOpenAI
	cacheDeepSeek = llm.CacheFieldDeepSeek
	cacheMoonshot = llm.CacheFieldMoonshot
)

// table is every shipped preset. Windows and prices are the providers'
// published figures (USD per million tokens); models change often, so the
// picker always lists the endpoint's own models and these only fill in
// what /models does not say. Prices left at zero are unknown: GoVibe then
// shows no cost rather than a wrong one.
//
// Each entry's "Source:" comment names where its figures and conventions
// were checked (November 2026); re-check there before changing them.
var table = []Preset{
	{
		// Source: api-docs.deepseek.com (quick_start/pricing: 128K window,
		// deepseek-chat 8K output, deepseek-reasoner 64K; $0.28 miss /
		// $0.028 hit / $0.42 out; guides/thinking_mode: reasoning_content
		// must come back on tool-call turns; usage prompt_cache_hit_tokens),
		// cross-checked with Roo-Code packages/types/src/providers/deepseek.ts.
		ID: "deepseek", Name: "DeepSeek", BaseURL: "https://api.deepseek.com",
		KeyEnv: "DEEPSEEK_API_KEY", Quirks: llm.ProviderDeepSeek,
		// guides/thinking_mode: a profile's reasoningEffort turns thinking
		// on ({"thinking":{"type":"enabled"}}) with reasoning_effort
		// low/high (llm.ThinkingDeepSeek).
		CacheField: cacheDeepSeek, ReasoningField: "reasoning_content", ReasoningReplay: ReplayToolTurns,
		ReasoningEffort: true, Thinking: llm.ThinkingDeepSeek,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "deepseek-chat", ContextWindow: 128000, MaxOutputTokens: 8192, PriceInput: 0.28, PriceCachedInput: 0.028, PriceOutput: 0.42},
			{ID: "deepseek-reasoner", ContextWindow: 128000, MaxOutputTokens: 65536, PriceInput: 0.28, PriceCachedInput: 0.028, PriceOutput: 0.42, Reasoning: true},
		},
		DocsURL: "https://api-docs.deepseek.com",
	},
	{
		// Source: platform.openai.com/docs/pricing and api-reference/chat
		// (usage.prompt_tokens_details.cached_tokens, reasoning_effort,
		// max_completion_tokens); prices agree across several public price
		// tables (gpt-4.1 $2/$0.50/$8, gpt-4o-mini $0.15/$0.075/$0.60).
		// Reasoning is hidden: only completion_tokens_details.reasoning_tokens.
		ID: "openai", Name: "OpenAI", BaseURL: "https://api.openai.com/v1",
		KeyEnv: "OPENAI_API_KEY", Quirks: llm.ProviderOpenAI,
		CacheField: cacheOpenAI, ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "gpt-4.1", ContextWindow: 1047576, MaxOutputTokens: 32768, PriceInput: 2, PriceCachedInput: 0.5, PriceOutput: 8},
			{ID: "gpt-4.1-mini", ContextWindow: 1047576, MaxOutputTokens: 32768, PriceInput: 0.4, PriceCachedInput: 0.1, PriceOutput: 1.6},
			{ID: "gpt-4o", ContextWindow: 128000, MaxOutputTokens: 16384, PriceInput: 2.5, PriceCachedInput: 1.25, PriceOutput: 10},
			{ID: "gpt-4o-mini", ContextWindow: 128000, MaxOutputTokens: 16384, PriceInput: 0.15, PriceCachedInput: 0.075, PriceOutput: 0.6},
			{ID: "o4-mini", ContextWindow: 200000, MaxOutputTokens: 100000, PriceInput: 1.1, PriceCachedInput: 0.275, PriceOutput: 4.4, Reasoning: true},
		},
		DocsURL: "https://platform.openai.com/docs/api-reference/chat",
	},
	{
		ID: "openrouter", Name: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1",
		KeyEnv: "OPENROUTER_API_KEY", Quirks: llm.ProviderGeneric,
		// Source: openrouter.ai/docs/app-attribution: HTTP-Referer identifies
		// the app, X-OpenRouter-Title names it (X-Title is still accepted);
		// both optional. docs/use-cases/reasoning-tokens: reasoning streams in
		// delta.reasoning.
		Headers:    map[string]string{"HTTP-Referer": "https://github.com/govibe/govibe", "X-OpenRouter-Title": "GoVibe"},
		CacheField: cacheOpenAI, ReasoningField: "reasoning", ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://openrouter.ai/docs/api-reference/overview",
	},
	{
		// Source: platform.kimi.ai/docs/api/quickstart (base URL
		// api.moonshot.ai/v1, .cn for mainland China), docs/pricing (256K
		// window; kimi-k2 $0.60 miss / $0.15 hit / $2.50 out), the thinking
		// model guide (reasoning_content, kept in context across tool calls)
		// and the usage object's top-level cached_tokens.
		ID: "moonshot", Name: "Moonshot (Kimi)", BaseURL: "https://api.moonshot.ai/v1",
		AltBaseURLs: []string{"https://api.moonshot.cn/v1"},
		KeyEnv:      "MOONSHOT_API_KEY", Quirks: llm.ProviderGeneric,
		CacheField: cacheMoonshot, ReasoningField: "reasoning_content", ReasoningReplay: ReplayToolTurns,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "kimi-k2-0905-preview", ContextWindow: 262144, MaxOutputTokens: 32768, PriceInput: 0.6, PriceCachedInput: 0.15, PriceOutput: 2.5},
			{ID: "kimi-k2-thinking", ContextWindow: 262144, MaxOutputTokens: 32768, PriceInput: 0.6, PriceCachedInput: 0.15, PriceOutput: 2.5, Reasoning: true},
		},
		DocsURL: "https://platform.moonshot.ai/docs",
	},
	{
		// Source: alibabacloud.com/help/en/model-studio/qwen-coder (intl
		// base URL, Beijing dashscope.aliyuncs.com as the alternative) and
		// /deep-thinking (enable_thinking and thinking_budget, sent only when a profile sets reasoningEffort;
		// stream_options.include_usage documented for the last chunk);
		// help.aliyun.com/zh/model-studio/qwen-coder: qwen3-coder-plus
		// 1,000,000 window, 65,536 output. Prices are tiered by input size
		// and region, so none are filled in.
		// qwen-plus's window is NOT verified against Alibaba's own model
		// list (not in the searchable copies): public tables disagree,
		// 131,072 for the Qwen2.5-based qwen-plus (wavespeed.ai
		// qwen/qwen-plus) and 1,000,000 for qwen-plus-2025-07-28 and
		// qwen-plus-latest (getmaxim.ai Bifrost: 998K). 131,072 is kept:
		// the safe side, a window too small only compacts early, and
		// /models or a profile's contextWindow overrides it.
		// Streams (scripted DialectQwen): tool-call argument deltas restate
		// "id":"" and name null after the first (Model Studio
		// function-calling docs, quoted in experientiallabs/experiential
		// #742); usage comes in a choices:[] chunk when asked, cache hits in
		// prompt_tokens_details.cached_tokens (not verified beyond the
		// OpenAI-compatible docs). GET /models on compatible mode: not
		// verified; a failed list falls back to these models.
		ID: "qwen", Name: "Qwen (DashScope compatible mode)", BaseURL: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
		AltBaseURLs: []string{"https://dashscope.aliyuncs.com/compatible-mode/v1"},
		KeyEnv:      "DASHSCOPE_API_KEY", Quirks: llm.ProviderGeneric,
		// model-studio/deep-thinking: a profile's reasoningEffort sends
		// enable_thinking and a thinking_budget, never reasoning_effort
		// (llm.ThinkingQwen).
		CacheField: cacheOpenAI, ReasoningField: "reasoning_content", ReasoningReplay: ReplayNever,
		Thinking: llm.ThinkingQwen,
		Tools:    true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "qwen-plus", ContextWindow: 131072, MaxOutputTokens: 16384},
			{ID: "qwen3-coder-plus", ContextWindow: 1000000, MaxOutputTokens: 65536},
		},
		DocsURL: "https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope",
	},
	{
		// Source: docs.z.ai/guides/develop/openai/introduction and
		// open.bigmodel.cn (paas/v4 on both hosts; reasoning_content; numeric
		// business error codes, see errors.go). docs.z.ai/guides/llm/glm-4.5:
		// 128K window, 96K output; docs.z.ai/guides/llm/glm-4.6: 200K window,
		// 128K output (the same figures on zenmux.ai/z-ai/glm-4.6); "K" is
		// read as thousands, the safe side of the window. Cache
		// hits in prompt_tokens_details.cached_tokens (docs.wolffi.sh
		// configuration/zai), billed at 1/5 (docs.z.ai/help/faq). Prices,
		// docs.z.ai/guides/overview/pricing as quoted (accessed 2026-02-22)
		// in a public ZAI_STANDARD_PRICING table, and getmaxim.ai Bifrost's
		// zai/glm-4.6 (200K in, 128K out, $0.60/$2.20): GLM-4.6 and GLM-4.5
		// both $0.60 miss / $0.11 hit / $2.20 out. (OpenRouter's and other
		// resellers' lower GLM-4.6 prices are theirs, not Z.ai's.)
		// Streams (scripted DialectZhipu): a tool call arrives whole, in the
		// finish chunk, beside finish_reason (jeremychone/rust-genai#199),
		// with usage on that chunk.
		// GET /models: hexdocs.pm Agentic.LLM.Provider.Zai says z.ai has
		// none; a failed list falls back to these models (ListModelsOrKnown).
		ID: "zhipu", Name: "Zhipu GLM", BaseURL: "https://open.bigmodel.cn/api/paas/v4",
		AltBaseURLs: []string{"https://api.z.ai/api/paas/v4"},
		KeyEnv:      "ZHIPUAI_API_KEY", Quirks: llm.ProviderGeneric,
		CacheField: cacheOpenAI, ReasoningField: "reasoning_content", ReasoningReplay: ReplayNever,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "glm-4.6", ContextWindow: 200000, MaxOutputTokens: 128000, PriceInput: 0.6, PriceCachedInput: 0.11, PriceOutput: 2.2, Reasoning: true},
			{ID: "glm-4.5", ContextWindow: 128000, MaxOutputTokens: 96000, PriceInput: 0.6, PriceCachedInput: 0.11, PriceOutput: 2.2, Reasoning: true},
		},
		DocsURL: "https://docs.z.ai/guides/develop/openai/introduction",
	},
	{
		// Source: console.groq.com/docs/reasoning (reasoning in its own
		// "reasoning" field by default, include_reasoning=true; raw <think>
		// is refused with tools, so "parsed" applies) and groq-python
		// (types/chat/chat_completion_chunk.py: delta.reasoning, usage also
		// in x_groq.usage on the last chunk, top-level usage with
		// include_usage; types/completion_usage.py:
		// prompt_tokens_details.cached_tokens). A reasoning_content replayed
		// on an assistant message is a 400 (agentjido/req_llm#772), so never
		// replay. Windows and output caps: console.groq.com/docs/models
		// (llama-3.3-70b-versatile 131,072 / 32,768; openai/gpt-oss-120b
		// 131,072 / 65,536), the same in agentstation/starmap's Groq
		// catalogue. Prices: llama-3.3-70b $0.59/$0.79 (starmap, groq.com/
		// pricing); gpt-oss-120b $0.15/$0.60 per Groq's models and pricing
		// pages (braintrustdata/braintrust-proxy#925 checked both; the first
		// pass had $0.75 out, the launch price). Groq publishes no cached-
		// input price for these, so hits are charged as input (0 = unknown).
		// GET /models also reports context_window per model.
		ID: "groq", Name: "Groq", BaseURL: "https://api.groq.com/openai/v1",
		KeyEnv: "GROQ_API_KEY", Quirks: llm.ProviderGeneric,
		CacheField: cacheOpenAI, ReasoningField: "reasoning", ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "llama-3.3-70b-versatile", ContextWindow: 131072, MaxOutputTokens: 32768, PriceInput: 0.59, PriceOutput: 0.79},
			{ID: "openai/gpt-oss-120b", ContextWindow: 131072, MaxOutputTokens: 65536, PriceInput: 0.15, PriceOutput: 0.6, Reasoning: true},
		},
		DocsURL: "https://console.groq.com/docs/openai",
	},
	{
		// Source: docs.together.ai/docs/openai-api-compatibility and
		// docs/inference/chat/reasoning (reasoning in the "reasoning" field,
		// reasoning_effort for gpt-oss, hybrid models take
		// reasoning.enabled). api.together.ai/v1 is the current host name
		// (ragflow's TogetherAI provider), api.together.xyz/v1 still
		// answers. The catalogue is large and priced per model on
		// together.ai/pricing; GET /models carries context_length.
		// Cache hits: none reported. Together's SDK, generated from its
		// OpenAPI spec (togethercomputer/together-py types/chat/
		// chat_completion_usage.py), has only prompt, completion and total
		// tokens, so no cache field is read. Streams (scripted
		// DialectTogether, from docs.together.ai streaming example and the
		// SDK's chunk type): every chunk carries "usage": null and a token
		// object, the delta carries its role, and usage rides on the last
		// chunk. Whether stream_options is honoured is not verified; usage
		// arrives either way.
		ID: "together", Name: "Together AI", BaseURL: "https://api.together.xyz/v1",
		AltBaseURLs: []string{"https://api.together.ai/v1"},
		KeyEnv:      "TOGETHER_API_KEY", Quirks: llm.ProviderGeneric,
		ReasoningField: "reasoning", ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://docs.together.ai/docs/openai-api-compatibility",
	},
	{
		ID: "mistral", Name: "Mistral", BaseURL: "https://api.mistral.ai/v1",
		KeyEnv: "MISTRAL_API_KEY", Quirks: llm.ProviderGeneric,
		// Source: docs.mistral.ai/api. Mistral sends usage on the last chunk
		// unasked and rejects fields it does not know with a 422
		// "extra_forbidden" (mistralai/platform-docs-public#7), so
		// stream_options and reasoning_effort are left out.
		ReasoningReplay: ReplayNever,
		Tools:           true, IncludeUsage: false, ModelsPath: "/models",
		Models: []Model{
			{ID: "mistral-large-latest", ContextWindow: 131072, MaxOutputTokens: 32768},
			{ID: "devstral-medium-latest", ContextWindow: 131072, MaxOutputTokens: 32768},
			{ID: "codestral-latest", ContextWindow: 262144, MaxOutputTokens: 32768},
		},
		DocsURL: "https://docs.mistral.ai/api/",
	},
	{
		// Source: ai.google.dev/api/compatibility (base URL
		// v1beta/openai/, reasoning_effort mapped to a thinking budget;
		// thoughts are not streamed as a field), ai.google.dev/gemini-api/
		// docs/models (1,048,576-token window, 65,536 output).
		// Gemini 3 puts a thought signature on each function call
		// (tool_calls[].extra_content.google.thought_signature) and answers
		// 400 "Function call is missing a thought_signature" when a call of
		// the current turn comes back without it
		// (ai.google.dev/gemini-api/docs/thought-signatures, reported on
		// discuss.ai.google.dev "OpenAI API compatibility broken due to
		// thought_signature"; crmne/ruby_llm#588 does the same round trip).
		ID: "gemini", Name: "Gemini (OpenAI-compatible)", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
		KeyEnv: "GEMINI_API_KEY", Quirks: llm.ProviderGeneric,
		ReasoningReplay: ReplayNever, ReasoningEffort: true, ToolCallExtra: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		Models: []Model{
			{ID: "gemini-2.5-pro", ContextWindow: 1048576, MaxOutputTokens: 65536, Reasoning: true},
			{ID: "gemini-2.5-flash", ContextWindow: 1048576, MaxOutputTokens: 65536, Reasoning: true},
		},
		DocsURL: "https://ai.google.dev/gemini-api/docs/openai",
	},
	{
		// Source: docs.ollama.com/api/openai-compatibility and ollama's
		// openai/openai.go (ToChunk: delta.reasoning, every delta with role
		// and content, each tool call whole in one chunk; Usage has no
		// cached tokens; ChatCompletionRequest takes reasoning_effort, "none"
		// turns thinking off: ollama/ollama#12004); usage comes only with
		// stream_options.include_usage, as on OpenAI. Windows depend on the
		// loaded model (num_ctx), so none are listed.
		ID: "ollama", Name: "Ollama", BaseURL: "http://localhost:11434/v1", Local: true,
		Quirks: llm.ProviderGeneric, ReasoningField: "reasoning", ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://docs.ollama.com/api/openai-compatibility",
	},
	{
		// Source: lmstudio.ai/docs/app/api/endpoints/openai (port 1234;
		// reasoning_content when "separate reasoning_content" is on) and
		// lmstudio.ai/docs/app/api-changelog (0.3.18: stream_options.
		// include_usage honoured, parallel tool calls split across chunks
		// fixed; gpt-oss streams delta.reasoning, which the client reads as
		// the fallback field). reasoning_effort on chat completions is not
		// documented (only reasoning.effort on /v1/responses), so it is
		// left out.
		ID: "lmstudio", Name: "LM Studio", BaseURL: "http://localhost:1234/v1", Local: true,
		Quirks: llm.ProviderGeneric, ReasoningField: "reasoning_content", ReasoningReplay: ReplayNever,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://lmstudio.ai/docs/app/api/endpoints/openai",
	},
	{
		ID: "vllm", Name: "vLLM", BaseURL: "http://localhost:8000/v1", Local: true,
		// Source: docs.vllm.ai serving/openai_compatible_server and
		// features/reasoning_outputs. Tools need --enable-auto-tool-choice
		// and a tool parser; reasoning needs --reasoning-parser. The probe
		// says which are on. vLLM renamed reasoning_content to reasoning
		// (vllm-project/vllm#27752, the old name removed in #33402); the
		// client falls back to the old name for older servers.
		// Cached prompt tokens are reported with --enable-prompt-tokens-details.
		Quirks: llm.ProviderGeneric, CacheField: cacheOpenAI, ReasoningField: "reasoning", ReasoningReplay: ReplayNever, ReasoningEffort: true,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html",
	},
	{
		ID: "llamacpp", Name: "llama.cpp server", BaseURL: "http://localhost:8080/v1", Local: true,
		// Source: llama.cpp tools/server/README.md (tools need --jinja),
		// common/chat.cpp common_chat_msg_diff_to_json_oaicompat
		// (reasoning_content deltas; a tool call's header then argument
		// pieces) and tools/server/server-task.cpp (usage in a choices:[]
		// chunk only with stream_options.include_usage since PR #16052,
		// before that unasked on the finish chunk; no cached-token count in
		// usage, only timings.cache_n). Windows come from the server's -c.
		Quirks: llm.ProviderGeneric, ReasoningField: "reasoning_content", ReasoningReplay: ReplayNever,
		Tools: true, IncludeUsage: true, ModelsPath: "/models",
		DocsURL: "https://github.com/ggml-org/llama.cpp/tree/master/tools/server",
	},
}
