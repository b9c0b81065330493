package scripted

import (
	"encoding/json"
	"fmt"
)

// Dialect names the stream shape of one provider, so the client is tested
// against the chunks each one really sends, not only OpenAI's. The empty
// dialect is OpenAI's shape as every compatible server starts from
// (buildStream); the hosted providers' own shapes are in dialect_hosted.go.
type Dialect string

const (
	DialectOpenAI Dialect = ""
	// DialectDeepSeek opens with {"role":"assistant","content":null} and
	// sends content:null beside reasoning_content deltas.
	DialectDeepSeek Dialect = "deepseek"
	// DialectOllama (ollama openai/openai.go, ToChunk): every delta carries
	// role "assistant" and content "" even when empty, each tool call
	// arrives whole (id, index, type, name, full arguments) in one chunk,
	// reasoning is "reasoning", usage comes in a separate choices:[]
	// chunk only when stream_options.include_usage is set.
	DialectOllama Dialect = "ollama"
	// DialectLlamaCpp (llama.cpp tools/server server-task.cpp and
	// common/chat.cpp common_chat_msg_diff_to_json_oaicompat): opens with
	// content:null, reasoning_content deltas carry no content key, a tool
	// call's first delta has index, id, type and name with empty
	// arguments and later ones index and arguments only, the finish chunk
	// has an empty delta, and the last chunk carries llama.cpp's own
	// "timings" object. Usage (no cached tokens) comes in a choices:[]
	// chunk when include_usage is set; servers before PR #16052 sent it
	// unasked on the finish chunk (Config.UsageUnasked).
	DialectLlamaCpp Dialect = "llamacpp"
	// DialectGroq (groq-python types/chat/chat_completion_chunk.py): the
	// first and last chunks carry "x_groq" ({id}; then {id, usage}) and
	// the top-level usage chunk follows only when asked.
	DialectGroq Dialect = "groq"
	// DialectMistral (mistralai/client-ts docs CompletionChunk): usage
	// rides on the finish chunk (choices not empty), sent unasked; tool
	// calls arrive whole in one delta.
	DialectMistral Dialect = "mistral"
)

// Dialects lists every dialect a Config may name.
var Dialects = []Dialect{DialectOpenAI, DialectDeepSeek, DialectOllama, DialectLlamaCpp, DialectGroq, DialectMistral,
	DialectOpenAIPlatform, DialectOpenRouter, DialectMoonshot, DialectQwen, DialectZhipu, DialectTogether,
	DialectLMStudio, DialectVLLM, DialectGemini}

// buildDialectStream renders r in dialect d. usage is nil when the usage
// is not to be sent; asked says the request set include_usage.
func buildDialectStream(d Dialect, id, model string, created int64, r Reply, usage *Usage, asked bool) streamPlan {
	if d == DialectOpenAI {
		return buildStream(id, model, created, r, usage)
	}
	if _, ok := hostedShapes[d]; ok {
		return buildHostedStream(d, id, model, created, r, usage)
	}
	var p streamPlan
	chunk := func(delta map[string]any, finish *string, extra map[string]any) {
		choice := map[string]any{"index": 0, "delta": delta, "finish_reason": finish}
		if d != DialectOllama && d != DialectLlamaCpp {
			choice["logprobs"] = nil
		}
		env := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{choice}}
		switch d {
		case DialectOllama:
			env["system_fingerprint"] = "fp_ollama"
		case DialectLlamaCpp:
			env["system_fingerprint"] = "b7000-scripted"
		}
		for k, v := range extra {
			env[k] = v
		}
		b, _ := json.Marshal(env)
		p.chunks = append(p.chunks, b)
	}
	// delta builds one delta in the dialect's manner.
	delta := func(fields map[string]any) map[string]any {
		if d == DialectOllama {
			fields["role"] = "assistant"
			if _, ok := fields["content"]; !ok {
				fields["content"] = ""
			}
		}
		return fields
	}
	reasoning := reasoningField(r)

	// The opening chunk.
	var first map[string]any
	switch d {
	case DialectDeepSeek, DialectLlamaCpp:
		first = map[string]any{"role": "assistant", "content": nil}
	default:
		first = delta(map[string]any{"role": "assistant", "content": ""})
	}
	var firstExtra map[string]any
	if d == DialectGroq {
		firstExtra = map[string]any{"x_groq": map[string]any{"id": "req_scripted_" + id}}
	}
	chunk(first, nil, firstExtra)

	for _, s := range splitRunes(r.Reasoning, r.ChunkSize) {
		f := map[string]any{reasoning: s}
		if d == DialectDeepSeek {
			f["content"] = nil
		}
		chunk(delta(f), nil, nil)
	}
	for _, s := range splitRunes(r.Text, r.ChunkSize) {
		chunk(delta(map[string]any{"content": s}), nil, nil)
	}
	whole := d == DialectOllama || d == DialectMistral
	for i, tc := range r.ToolCalls {
		callID := tc.ID
		if whole {
			chunk(delta(map[string]any{"tool_calls": []any{map[string]any{
				"id": callID, "index": i, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments},
			}}}), nil, nil)
			continue
		}
		header := map[string]any{
			"index": i, "id": callID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""},
		}
		if tc.Extra != "" {
			header["extra_content"] = json.RawMessage(tc.Extra)
		}
		chunk(delta(map[string]any{"tool_calls": []any{header}}), nil, nil)
		for _, s := range splitRunes(tc.Arguments, r.ChunkSize) {
			chunk(delta(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": s},
			}}}), nil, nil)
		}
	}

	fr := finishReason(r)
	finishExtra := map[string]any{}
	switch d {
	case DialectGroq:
		// Groq reports usage in x_groq on the last chunk whether or not
		// include_usage was set.
		u := unaskedUsage
		if usage != nil {
			u = *usage
		}
		finishExtra["x_groq"] = map[string]any{"id": "req_scripted_" + id, "usage": usageJSON(u)}
	case DialectMistral:
		if usage != nil {
			finishExtra["usage"] = usageJSON(*usage)
			usage = nil
		}
	case DialectLlamaCpp:
		if usage != nil && !asked {
			finishExtra["usage"] = usageJSON(*usage)
			usage = nil
		}
	}
	finishDelta := map[string]any{}
	if d == DialectOllama {
		finishDelta = delta(finishDelta)
	}
	chunk(finishDelta, &fr, finishExtra)
	if usage != nil {
		env := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": usageJSON(*usage)}
		b, _ := json.Marshal(env)
		p.chunks = append(p.chunks, b)
	}
	if d == DialectLlamaCpp {
		p.chunks[len(p.chunks)-1] = withTimings(p.chunks[len(p.chunks)-1])
	}
	return p
}

// unaskedUsage is what x_groq reports when the server was not asked for
// (and so not given) the reply's usage figures.
var unaskedUsage = Usage{PromptTokens: 1, CompletionTokens: 1, CacheFields: CacheFieldsOpenAI}

// withTimings adds llama.cpp's timings object to a rendered chunk.
func withTimings(b []byte) []byte {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	m["timings"] = map[string]any{"cache_n": 0, "prompt_n": 1, "prompt_ms": 1.5, "predicted_n": 1, "predicted_ms": 2.5,
		"prompt_per_second": 666.7, "predicted_per_second": 400.0}
	out, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("scripted: re-rendering a chunk: %v", err))
	}
	return out
}
