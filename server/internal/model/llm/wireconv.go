package llm

// Reasoning replay rules: what the client does with the reasoning text of
// an earlier assistant message when it sends the conversation again.
const (
	// ReplayNever strips reasoning from history (the provider ignores or
	// rejects it).
	ReplayNever = "never"
	// ReplayToolTurns passes reasoning back on every assistant message of a
	// user turn in which the model called a tool, and drops it elsewhere.
	// DeepSeek's thinking mode answers 400 without it; Moonshot's
	// kimi-k2-thinking documents the same rule.
	ReplayToolTurns = "tool-turns"
)

// Wire is one provider's conventions on top of OpenAI's chat-completions
// format, as a provider preset describes them. The zero value is what
// GoVibe did before presets: stream_options.include_usage sent, both
// reasoning fields and every known cache field read, reasoning replayed to
// DeepSeek only (by host), reasoning_effort sent when set.
type Wire struct {
	// Headers are added to every request (OpenRouter's attribution
	// headers). Authorization and Content-Type are never overridden.
	Headers map[string]string
	// ReasoningField is the delta field carrying reasoning text
	// ("reasoning_content" or "reasoning"); empty reads either. Replayed
	// reasoning is sent back under the same name.
	ReasoningField string
	// ReasoningReplay is ReplayNever or ReplayToolTurns; empty follows the
	// provider quirks (DeepSeek replays on tool turns).
	ReasoningReplay string
	// CacheField is where usage reports cached prompt tokens, a path inside
	// the usage object: "prompt_tokens_details.cached_tokens" (OpenAI),
	// "prompt_cache_hit_tokens" (DeepSeek) or "cached_tokens" (Moonshot).
	// Empty takes the first of those that is present and non-zero.
	CacheField string
	// NoStreamUsage leaves stream_options out: the endpoint rejects it or
	// sends usage on the last chunk unasked.
	NoStreamUsage bool
	// NoReasoningEffort leaves reasoning_effort out even when the profile
	// sets it: the endpoint does not take it.
	NoReasoningEffort bool
	// Thinking is the provider's own way to take the profile's
	// ReasoningEffort (ThinkingDeepSeek, ThinkingQwen); empty sends
	// OpenAI's reasoning_effort alone.
	Thinking string
	// ToolCallExtra sends each replayed tool call's extra_content back
	// (ToolCall.Extra): Gemini 3 answers 400 "Function call is missing a
	// thought_signature" without it.
	ToolCallExtra bool
}

// Cache-field paths (Wire.CacheField).
const (
	CacheFieldOpenAI   = "prompt_tokens_details.cached_tokens"
	CacheFieldDeepSeek = "prompt_cache_hit_tokens"
	CacheFieldMoonshot = "cached_tokens"
)

// replayRule is the rule in force: the wire's, else the quirks'.
func (c *OpenAIClient) replayRule() string {
	if r := c.profile.Wire.ReasoningReplay; r != "" {
		return r
	}
	if c.provider == ProviderDeepSeek {
		return ReplayToolTurns
	}
	return ReplayNever
}

// replayField is the message field replayed reasoning goes in.
func (c *OpenAIClient) replayField() string {
	if f := c.profile.Wire.ReasoningField; f != "" {
		return f
	}
	return "reasoning_content"
}
