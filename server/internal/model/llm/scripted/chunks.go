package scripted

import (
	"encoding/json"
	"fmt"
)

const defaultChunkSize = 6

// splitRunes cuts s into pieces of n runes, never splitting a UTF-8 sequence.
func splitRunes(s string, n int) []string {
	if s == "" {
		return nil
	}
	if n <= 0 {
		n = defaultChunkSize
	}
	var out []string
	r := []rune(s)
	for i := 0; i < len(r); i += n {
		out = append(out, string(r[i:min(i+n, len(r))]))
	}
	return out
}

// streamPlan is the ordered list of SSE data payloads for one reply, minus
// the [DONE] terminator.
type streamPlan struct {
	chunks [][]byte
}

type chunkEnvelope struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Created int64          `json:"created"`
	Model   string         `json:"model"`
	Choices []chunkChoice  `json:"choices"`
	Usage   map[string]any `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int            `json:"index"`
	Delta        map[string]any `json:"delta"`
	Logprobs     any            `json:"logprobs"`
	FinishReason *string        `json:"finish_reason"`
}

func finishReason(r Reply) string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// reasoningField is the delta field reasoning streams in: DeepSeek's
// reasoning_content unless the reply names another (OpenRouter, Groq and
// Ollama use "reasoning").
func reasoningField(r Reply) string {
	if r.ReasoningField == "reasoning" {
		return "reasoning"
	}
	return "reasoning_content"
}

// usageJSON renders usage in the requested provider dialect(s).
func usageJSON(u Usage) map[string]any {
	m := map[string]any{
		"prompt_tokens":     u.PromptTokens,
		"completion_tokens": u.CompletionTokens,
		"total_tokens":      u.PromptTokens + u.CompletionTokens,
	}
	if u.ReasoningTokens > 0 {
		m["completion_tokens_details"] = map[string]any{"reasoning_tokens": u.ReasoningTokens}
	}
	style := u.CacheFields
	if style == "" {
		style = CacheFieldsBoth
	}
	if style == CacheFieldsBoth || style == CacheFieldsOpenAI {
		m["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CachedTokens}
	}
	if style == CacheFieldsMoonshot {
		m["cached_tokens"] = u.CachedTokens
	}
	if style == CacheFieldsBoth || style == CacheFieldsDeepSeek {
		m["prompt_cache_hit_tokens"] = u.CachedTokens
		m["prompt_cache_miss_tokens"] = u.PromptTokens - u.CachedTokens
	}
	return m
}

func buildStream(id, model string, created int64, r Reply, usage *Usage) streamPlan {
	var p streamPlan
	add := func(delta map[string]any, finish *string) {
		p.chunks = append(p.chunks, renderChunk(id, model, created, delta, finish))
	}
	text := newTextChunks(id, model, created)
	add(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, s := range splitRunes(r.Reasoning, r.ChunkSize) {
		// DeepSeek sends content:null alongside reasoning deltas.
		p.chunks = append(p.chunks, text.render(`{"content":null,"`+reasoningField(r)+`":`, s))
	}
	for _, s := range splitRunes(r.Text, r.ChunkSize) {
		p.chunks = append(p.chunks, text.render(`{"content":`, s))
	}
	for i, tc := range r.ToolCalls {
		header := map[string]any{
			"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""},
		}
		if tc.Extra != "" {
			header["extra_content"] = json.RawMessage(tc.Extra)
		}
		add(map[string]any{"tool_calls": []any{header}}, nil)
		for _, s := range splitRunes(tc.Arguments, r.ChunkSize) {
			add(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": s},
			}}}, nil)
		}
	}
	fr := finishReason(r)
	add(map[string]any{}, &fr)
	if usage != nil {
		env := chunkEnvelope{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []chunkChoice{}, Usage: usageJSON(*usage)}
		b, _ := json.Marshal(env)
		p.chunks = append(p.chunks, b)
	}
	return p
}

// renderChunk renders one chunk through encoding/json; text deltas, which
// make up almost all of a long reply, take the faster textChunks path to
// the same bytes.
func renderChunk(id, model string, created int64, delta map[string]any, finish *string) []byte {
	env := chunkEnvelope{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
		Choices: []chunkChoice{{Index: 0, Delta: delta, FinishReason: finish}}}
	b, _ := json.Marshal(env)
	return b
}

// textChunks renders text and reasoning deltas byte for byte as renderChunk
// would, from a prefix built once per reply: marshalling a map-based
// envelope per one-character delta made a 10,000-delta reply take tens of
// milliseconds to prepare before its first byte went out.
type textChunks struct {
	prefix []byte
}

const textChunkSuffix = `},"logprobs":null,"finish_reason":null}]}`

func newTextChunks(id, model string, created int64) textChunks {
	full := renderChunk(id, model, created, map[string]any{}, nil)
	// full ends with `"delta":{},"logprobs":null,"finish_reason":null}]}`;
	// the prefix is everything before the delta object.
	return textChunks{prefix: full[:len(full)-len(textChunkSuffix)-len(`{`)]}
}

// render returns the chunk whose delta is open (the delta object's start,
// up to the colon before the text) followed by s as a JSON string.
func (t textChunks) render(open, s string) []byte {
	b := make([]byte, 0, len(t.prefix)+len(open)+len(s)+2+len(textChunkSuffix))
	b = append(b, t.prefix...)
	b = append(b, open...)
	b = appendJSONString(b, s)
	return append(b, textChunkSuffix...)
}

// appendJSONString appends s encoded exactly as json.Marshal encodes it.
// Plain printable ASCII, the common case, needs no escaping; anything else
// goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// buildCompletion renders a non-streaming chat.completion object.
func buildCompletion(id, model string, created int64, r Reply, usage Usage) []byte {
	msg := map[string]any{"role": "assistant", "content": r.Text}
	if r.Reasoning != "" {
		msg[reasoningField(r)] = r.Reasoning
	}
	if len(r.ToolCalls) > 0 {
		var calls []any
		for _, tc := range r.ToolCalls {
			calls = append(calls, map[string]any{"id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
		}
		msg["tool_calls"] = calls
	}
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "chat.completion", "created": created, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finishReason(r)}},
		"usage":   usageJSON(usage),
	})
	return b
}

func errorJSON(message, typ string, code any) []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": code,
	}})
	return b
}

// forbiddenField is the first of fields present at the top level of the
// JSON body, "" when none is.
func forbiddenField(body []byte, fields []string) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return ""
	}
	for _, f := range fields {
		if _, ok := top[f]; ok {
			return f
		}
	}
	return ""
}

// extraForbidden is a strict server's answer to an unknown field, in the
// shape Mistral's API gives it (a pydantic detail list inside "message").
func extraForbidden(field string) []byte {
	detail, _ := json.Marshal(map[string]any{"detail": []any{map[string]any{
		"type": "extra_forbidden", "loc": []string{"body", field}, "msg": "Extra inputs are not permitted",
	}}})
	b, _ := json.Marshal(map[string]any{"object": "error", "message": string(detail), "type": "invalid_request_error", "param": nil, "code": nil})
	return b
}

func completionID(seq int) string { return fmt.Sprintf("chatcmpl-scripted-%d", seq) }
