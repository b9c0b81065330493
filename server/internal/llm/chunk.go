package llm

import (
	"encoding/json"
	"errors"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// streamChunk is the part of a chat.completion.chunk that GoVibe reads.
// openai-go's own ChatCompletionChunk decodes every field through a
// reflection-driven decoder that also records each field's raw JSON, which
// costs several times more than the rest of a delta's trip to the editor;
// a one-character delta does not need that.
//
// Provider dialects it covers: reasoning text as reasoning_content
// (DeepSeek, vLLM) or reasoning (OpenRouter, Ollama); cached prompt tokens
// as usage.prompt_tokens_details.cached_tokens (OpenAI) or
// usage.prompt_cache_hit_tokens (DeepSeek); null for any absent field.
type streamChunk struct {
	Choices []chunkChoice `json:"choices"`
	// Usage is nil unless the chunk carries a usage object (the final
	// chunk, when stream_options.include_usage is set).
	Usage *chunkUsage `json:"usage"`
	// Error is set when the event reports a failure instead of a delta.
	Error json.RawMessage `json:"error"`
}

type chunkChoice struct {
	Index        int64      `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"`
}

type chunkDelta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []chunkToolCall `json:"tool_calls"`
}

// reasoning returns the delta's thinking text in whichever field the
// provider uses.
func (d *chunkDelta) reasoning() string {
	if d.ReasoningContent != "" {
		return d.ReasoningContent
	}
	return d.Reasoning
}

type chunkToolCall struct {
	// Index tells parallel calls apart; their argument deltas interleave.
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chunkUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptCacheHitTokens int64 `json:"prompt_cache_hit_tokens"`
}

// decodeChunk decodes one SSE event's data as leniently as openai-go does:
// a field of an unexpected type (a provider sending reasoning as an object,
// say) is left empty and the rest of the chunk still counts. Malformed JSON
// is an error, which breaks the stream and is retried. c must be a fresh
// value: decoding into a used one would keep old deltas in reused slice
// elements.
func decodeChunk(data []byte, c *streamChunk) error {
	err := json.Unmarshal(data, c)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	if err != nil {
		return err
	}
	// Providers report a failure after the stream started as an event
	// with an error object (openai-go checks for the key the same way).
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return &ssestream.StreamError{
			Message: "received error while streaming: " + string(c.Error),
			Event:   ssestream.Event{Data: data},
		}
	}
	return nil
}

func (u *chunkUsage) usage() Usage {
	out := Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		CachedTokens:     u.PromptTokensDetails.CachedTokens,
		ReasoningTokens:  u.CompletionTokensDetails.ReasoningTokens,
	}
	if out.CachedTokens == 0 {
		out.CachedTokens = u.PromptCacheHitTokens
	}
	return out
}
