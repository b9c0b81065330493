package scripted

import (
	"encoding/json"
	"testing"
)

// chunksOf decodes a plan's chunks for shape assertions.
func chunksOf(t *testing.T, p streamPlan) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(p.chunks))
	for i, b := range p.chunks {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatalf("chunk %d is not JSON: %s", i, b)
		}
	}
	return out
}

func deltaOf(c map[string]any) map[string]any {
	ch, _ := c["choices"].([]any)
	if len(ch) == 0 {
		return nil
	}
	d, _ := ch[0].(map[string]any)["delta"].(map[string]any)
	return d
}

func finishOf(c map[string]any) any {
	ch, _ := c["choices"].([]any)
	if len(ch) == 0 {
		return nil
	}
	return ch[0].(map[string]any)["finish_reason"]
}

var dialectReply = Reply{Reasoning: "think", ReasoningField: "reasoning_content", Text: "hi",
	ToolCalls: []ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.go"}`}, {ID: "call_2", Name: "list", Arguments: `{}`}}}

// TestDialectShapes checks each dialect against the provider shapes its
// comment cites: where usage goes, how tool calls arrive, what the first
// and last chunks carry.
func TestDialectShapes(t *testing.T) {
	u := &Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 4, CacheFields: CacheFieldsOpenAI}

	t.Run("ollama", func(t *testing.T) {
		r := dialectReply
		r.ReasoningField = "reasoning"
		cs := chunksOf(t, buildDialectStream(DialectOllama, "id", "m", 1, r, u, true))
		whole := 0
		for i, c := range cs[:len(cs)-1] {
			d := deltaOf(c)
			if d["role"] != "assistant" {
				t.Errorf("chunk %d: Ollama sends the role in every delta: %v", i, d)
			}
			if _, ok := d["content"].(string); !ok {
				t.Errorf("chunk %d: Ollama sends content (\"\" when empty): %v", i, d)
			}
			if tcs, ok := d["tool_calls"].([]any); ok {
				fn := tcs[0].(map[string]any)["function"].(map[string]any)
				if fn["arguments"] == `{"path":"a.go"}` || fn["arguments"] == `{}` {
					whole++
				}
			}
			if c["system_fingerprint"] != "fp_ollama" {
				t.Errorf("chunk %d: fingerprint %v", i, c["system_fingerprint"])
			}
		}
		if whole != 2 {
			t.Errorf("%d tool calls arrived whole, want 2", whole)
		}
		last := cs[len(cs)-1]
		if ch := last["choices"].([]any); len(ch) != 0 || last["usage"] == nil {
			t.Errorf("usage chunk = %v", last)
		}
		if cs := chunksOf(t, buildDialectStream(DialectOllama, "id", "m", 1, r, nil, false)); cs[len(cs)-1]["usage"] != nil {
			t.Error("usage sent unasked")
		}
	})

	t.Run("llamacpp", func(t *testing.T) {
		cs := chunksOf(t, buildDialectStream(DialectLlamaCpp, "id", "m", 1, dialectReply, u, true))
		if d := deltaOf(cs[0]); d["content"] != nil || d["role"] != "assistant" {
			t.Errorf("first delta = %v, want content null", d)
		}
		if d := deltaOf(cs[1]); d["reasoning_content"] != "think" {
			t.Errorf("reasoning delta = %v", d)
		} else if _, has := d["content"]; has {
			t.Errorf("llama.cpp's reasoning deltas carry no content key: %v", d)
		}
		var header, rest int
		for _, c := range cs {
			tcs, _ := deltaOf(c)["tool_calls"].([]any)
			for _, x := range tcs {
				tc := x.(map[string]any)
				if _, ok := tc["id"]; ok {
					header++
					if tc["function"].(map[string]any)["arguments"] != "" {
						t.Errorf("a header delta carries arguments: %v", tc)
					}
				} else {
					rest++
				}
			}
		}
		if header != 2 || rest < 2 {
			t.Errorf("tool-call deltas: %d headers, %d argument pieces", header, rest)
		}
		fin := cs[len(cs)-2]
		if finishOf(fin) != "tool_calls" || len(deltaOf(fin)) != 0 {
			t.Errorf("finish chunk = %v", fin)
		}
		last := cs[len(cs)-1]
		if last["usage"] == nil || last["timings"] == nil || len(last["choices"].([]any)) != 0 {
			t.Errorf("last chunk = %v, want usage, timings and no choices", last)
		}
		// Before PR #16052 the usage came unasked on the finish chunk.
		cs = chunksOf(t, buildDialectStream(DialectLlamaCpp, "id", "m", 1, dialectReply, u, false))
		last = cs[len(cs)-1]
		if finishOf(last) != "tool_calls" || last["usage"] == nil || last["timings"] == nil {
			t.Errorf("legacy last chunk = %v", last)
		}
	})

	t.Run("groq", func(t *testing.T) {
		cs := chunksOf(t, buildDialectStream(DialectGroq, "id", "m", 1, dialectReply, nil, false))
		if x, _ := cs[0]["x_groq"].(map[string]any); x["id"] == nil {
			t.Errorf("first chunk's x_groq = %v", cs[0]["x_groq"])
		}
		last := cs[len(cs)-1]
		x, _ := last["x_groq"].(map[string]any)
		if finishOf(last) != "tool_calls" || x["usage"] == nil || last["usage"] != nil {
			t.Errorf("unasked: last chunk = %v, want usage only in x_groq", last)
		}
		cs = chunksOf(t, buildDialectStream(DialectGroq, "id", "m", 1, dialectReply, u, true))
		if last := cs[len(cs)-1]; last["usage"] == nil || len(last["choices"].([]any)) != 0 {
			t.Errorf("asked: last chunk = %v", last)
		}
	})

	t.Run("mistral", func(t *testing.T) {
		cs := chunksOf(t, buildDialectStream(DialectMistral, "id", "m", 1, dialectReply, u, false))
		last := cs[len(cs)-1]
		if finishOf(last) != "tool_calls" || last["usage"] == nil {
			t.Errorf("last chunk = %v, want usage on the finish chunk", last)
		}
		for _, c := range cs {
			tcs, _ := deltaOf(c)["tool_calls"].([]any)
			for _, x := range tcs {
				if fn := x.(map[string]any)["function"].(map[string]any); fn["name"] == "" || fn["arguments"] == "" {
					t.Errorf("a Mistral tool call came in pieces: %v", x)
				}
			}
		}
	})

	t.Run("deepseek", func(t *testing.T) {
		cs := chunksOf(t, buildDialectStream(DialectDeepSeek, "id", "m", 1, dialectReply, u, true))
		if d := deltaOf(cs[0]); d["content"] != nil {
			t.Errorf("first delta = %v, want content null", d)
		}
		if d := deltaOf(cs[1]); d["reasoning_content"] != "think" || d["content"] != nil {
			t.Errorf("reasoning delta = %v", d)
		}
	})
}
