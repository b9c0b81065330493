package scripted

import (
	"bytes"
	"testing"
)

// hostedChunks renders r in d and decodes its events, counting the SSE
// comments apart.
func hostedChunks(t *testing.T, d Dialect, r Reply, u *Usage) (cs []map[string]any, comments int) {
	t.Helper()
	var p streamPlan
	for _, b := range buildDialectStream(d, "id", "m", 1, r, u, u != nil).chunks {
		if bytes.HasPrefix(b, []byte(":")) {
			comments++
			continue
		}
		p.chunks = append(p.chunks, b)
	}
	return chunksOf(t, p), comments
}

func toolCallsOf(c map[string]any) []map[string]any {
	var out []map[string]any
	tcs, _ := deltaOf(c)["tool_calls"].([]any)
	for _, x := range tcs {
		out = append(out, x.(map[string]any))
	}
	return out
}

// TestHostedDialectShapes checks each hosted dialect against the shape its
// comment cites: the difference a client could trip over is present.
func TestHostedDialectShapes(t *testing.T) {
	u := &Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 4, ReasoningTokens: 1, CacheFields: CacheFieldsOpenAI}
	reasoning := dialectReply
	reasoning.ReasoningField = "reasoning"

	t.Run("openai", func(t *testing.T) {
		cs, _ := hostedChunks(t, DialectOpenAIPlatform, dialectReply, u)
		for i, c := range cs {
			if c["service_tier"] != "default" || c["obfuscation"] == nil {
				t.Errorf("chunk %d lacks OpenAI's service_tier/obfuscation: %v", i, c)
			}
			if d := deltaOf(c); d != nil && (d["reasoning_content"] != nil || d["reasoning"] != nil) {
				t.Errorf("OpenAI streamed reasoning text: %v", d)
			}
		}
		if _, ok := deltaOf(cs[0])["refusal"]; !ok {
			t.Errorf("first delta = %v, want a null refusal", deltaOf(cs[0]))
		}
		usage := cs[len(cs)-1]["usage"].(map[string]any)
		if usage["completion_tokens_details"].(map[string]any)["reasoning_tokens"] != float64(1) {
			t.Errorf("usage = %v", usage)
		}
	})

	t.Run("openrouter", func(t *testing.T) {
		cs, comments := hostedChunks(t, DialectOpenRouter, reasoning, u)
		if comments == 0 {
			t.Error("no : OPENROUTER PROCESSING comments")
		}
		if d := deltaOf(cs[1]); d["reasoning"] != "think" || d["reasoning_details"] == nil {
			t.Errorf("reasoning delta = %v", d)
		}
		fin := cs[len(cs)-2]["choices"].([]any)[0].(map[string]any)
		if fin["native_finish_reason"] != "tool_calls" {
			t.Errorf("finish choice = %v", fin)
		}
		if usage := cs[len(cs)-1]["usage"].(map[string]any); usage["cost"] == nil {
			t.Errorf("usage = %v, want OpenRouter's cost", usage)
		}
	})

	t.Run("moonshot", func(t *testing.T) {
		mu := *u
		mu.CacheFields = CacheFieldsMoonshot
		cs, _ := hostedChunks(t, DialectMoonshot, dialectReply, &mu)
		last := cs[len(cs)-1]
		choice := last["choices"].([]any)[0].(map[string]any)
		usage, _ := choice["usage"].(map[string]any)
		if last["usage"] != nil || usage == nil || usage["cached_tokens"] != float64(4) || finishOf(last) != "tool_calls" {
			t.Errorf("last chunk = %v, want usage (with cached_tokens) inside the finish choice", last)
		}
	})

	t.Run("qwen", func(t *testing.T) {
		cs, _ := hostedChunks(t, DialectQwen, dialectReply, u)
		if d := deltaOf(cs[1]); d["reasoning_content"] != "think" || d["content"] != nil {
			t.Errorf("reasoning delta = %v", d)
		}
		pieces := 0
		for _, c := range cs {
			for _, tc := range toolCallsOf(c) {
				if fn := tc["function"].(map[string]any); fn["name"] == nil {
					pieces++
					if tc["id"] != "" {
						t.Errorf("an argument piece restates id %v, want \"\"", tc["id"])
					}
				}
			}
		}
		if pieces == 0 {
			t.Error("no argument pieces with an empty id")
		}
	})

	t.Run("zhipu", func(t *testing.T) {
		cs, _ := hostedChunks(t, DialectZhipu, dialectReply, u)
		last := cs[len(cs)-1]
		if calls := toolCallsOf(last); len(calls) != 2 || finishOf(last) != "tool_calls" || last["usage"] == nil {
			t.Errorf("last chunk = %v, want both calls whole, the finish reason and usage", last)
		}
		for _, c := range cs[:len(cs)-1] {
			if len(toolCallsOf(c)) > 0 {
				t.Errorf("a tool call before the finish chunk: %v", c)
			}
		}
	})

	t.Run("together", func(t *testing.T) {
		cs, _ := hostedChunks(t, DialectTogether, reasoning, u)
		for i, c := range cs[:len(cs)-1] {
			if v, ok := c["usage"]; !ok || v != nil {
				t.Errorf("chunk %d: usage = %v, want null", i, v)
			}
			if deltaOf(c)["role"] != "assistant" {
				t.Errorf("chunk %d: no role in the delta", i)
			}
		}
		if last := cs[len(cs)-1]; last["usage"] == nil || finishOf(last) != "tool_calls" {
			t.Errorf("last chunk = %v, want usage beside the finish reason", last)
		}
	})

	t.Run("vllm and lmstudio", func(t *testing.T) {
		cs, _ := hostedChunks(t, DialectVLLM, reasoning, u)
		if ch := cs[0]["choices"].([]any)[0].(map[string]any); !hasKeys(ch, "stop_reason", "token_ids", "logprobs") {
			t.Errorf("vLLM choice = %v", ch)
		}
		cs, _ = hostedChunks(t, DialectLMStudio, dialectReply, u)
		if cs[0]["system_fingerprint"] != "m" {
			t.Errorf("LM Studio fingerprint = %v, want the model", cs[0]["system_fingerprint"])
		}
	})

	t.Run("gemini", func(t *testing.T) {
		r := dialectReply
		r.ToolCalls = []ToolCall{{ID: "c1", Name: "read_file", Arguments: `{}`, Extra: `{"google":{"thought_signature":"s"}}`}, {ID: "c2", Name: "list", Arguments: `{}`}}
		cs, _ := hostedChunks(t, DialectGemini, r, u)
		calls := 0
		for _, c := range cs {
			ch := c["choices"].([]any)
			if len(ch) == 0 {
				continue
			}
			if _, has := ch[0].(map[string]any)["finish_reason"]; has && finishOf(c) == nil {
				t.Errorf("a non-final choice has a finish_reason key: %v", c)
			}
			for _, tc := range toolCallsOf(c) {
				calls++
				if _, has := tc["index"]; has {
					t.Errorf("Gemini call with an index: %v", tc)
				}
			}
		}
		if calls != 2 || finishOf(cs[len(cs)-2]) != "stop" {
			t.Errorf("%d calls, finish %v; want 2 whole calls and \"stop\"", calls, finishOf(cs[len(cs)-2]))
		}
	})
}

func hasKeys(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}
