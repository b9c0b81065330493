// Package llm is GoVibe's provider-neutral model layer. The agent loop only
// sees the types in this file; provider wire formats stay inside the client.
//
// # Following the provider
//
// The chat client follows the provider's preset (Wire, from providers'
// Preset.Wire()): extra headers (OpenRouter's
// HTTP-Referer/X-OpenRouter-Title), the reasoning delta field (the other known
// field is the fallback), the replay rule (tool-turns: DeepSeek and Moonshot
// get reasoning_content back on the assistant messages of user turns that
// called tools), the cache-hit field (prompt_tokens_details.cached_tokens,
// prompt_cache_hit_tokens, Moonshot's top-level cached_tokens), and leaves out
// stream_options/reasoning_effort where the endpoint rejects them (Mistral's
// 422 extra_forbidden). Gemini's thought signatures: ToolCall.Extra keeps the
// call's extra_content in the model track and Wire.ToolCallExtra, Gemini's
// preset only, sends it back. The client recognises every preset's
// context-length body (ErrContextTooLong). Package scripted is the
// OpenAI-compatible model the tests, e2e and `make run`'s demo talk to.
package llm
