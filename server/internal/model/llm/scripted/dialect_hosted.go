package scripted

import "encoding/json"

// The hosted providers' dialects below differ from OpenAI's stream in
// ways a client can trip over: where usage goes, how tool calls arrive,
// what reasoning is called, and what else rides on each chunk. Each
// dialect's comment names where its shape was read; the presets'
// Source comments (providers/table.go) say the same per provider.
const (
	// DialectOpenAIPlatform is api.openai.com itself (openai-python
	// types/chat/chat_completion_chunk.py and completion_usage.py): every
	// chunk carries service_tier, system_fingerprint and an obfuscation
	// pad, the first delta a null refusal; reasoning is never streamed,
	// only counted (completion_tokens_details.reasoning_tokens); usage
	// comes in a choices:[] chunk when asked, with its detail objects.
	DialectOpenAIPlatform Dialect = "openai"
	// DialectOpenRouter (openrouter.ai/docs/api-reference/streaming and
	// use-cases/reasoning-tokens; Effect-TS/effect#6117 recorded the usage
	// chunk): SSE comments ": OPENROUTER PROCESSING" between events, a
	// provider name on every chunk, native_finish_reason beside
	// finish_reason, reasoning in delta.reasoning plus reasoning_details,
	// and a usage chunk with cost, is_byok and cost_details.
	DialectOpenRouter Dialect = "openrouter"
	// DialectMoonshot (earendil-works/pi#2017): usage comes inside the
	// finish chunk's choice, choices[0].usage, with the cache hits in its
	// top-level cached_tokens; reasoning_content for thinking models.
	DialectMoonshot Dialect = "moonshot"
	// DialectQwen (DashScope compatible mode; the Model Studio
	// function-calling docs' streaming example, quoted in
	// experientiallabs/experiential#742): argument deltas after a call's
	// first restate "id":"" and "type":"function" with name null;
	// reasoning_content deltas carry content null; system_fingerprint null.
	DialectQwen Dialect = "qwen"
	// DialectZhipu (jeremychone/rust-genai#199): a tool call arrives whole
	// in the finish chunk, beside finish_reason, and usage rides on that
	// chunk too.
	DialectZhipu Dialect = "zhipu"
	// DialectTogether (docs.together.ai streaming example; together-py
	// types/chat/chat_completion_chunk.py): every chunk has "usage": null
	// until the last, which carries the usage beside the finish reason;
	// the delta always names its role; reasoning in "reasoning".
	DialectTogether Dialect = "together"
	// DialectLMStudio (lmstudio.ai/docs/app/api/endpoints/openai and its
	// changelog): system_fingerprint is the model's name; usage in a
	// choices:[] chunk when asked (0.3.18 on); no logprobs key.
	DialectLMStudio Dialect = "lmstudio"
	// DialectVLLM (vllm entrypoints/openai protocol; a recorded stream in
	// GoogleCloudPlatform/kubectl-ai#559): each choice carries
	// stop_reason and token_ids beside logprobs; reasoning in "reasoning"
	// (vllm-project/vllm#27752); usage in a choices:[] chunk when asked.
	DialectVLLM Dialect = "vllm"
	// DialectGemini (open-webui/computer#224, THU-MAIC/OpenMAIC#1556,
	// googleapis/python-genai#2868): tool calls come whole and without an
	// index, each with its own id and extra_content (the thought
	// signature); the finish reason of a tool-call reply is "stop"; every
	// delta names its role and non-final choices have no finish_reason
	// key. Where usage goes is not documented; OpenAI's place is used.
	DialectGemini Dialect = "gemini"
)

type callStyle int

const (
	callsSplit      callStyle = iota // a header, then argument pieces (OpenAI)
	callsSplitNoID                   // pieces restate "id":"" (DashScope)
	callsWhole                       // each call whole in one delta
	callsWholeNoIdx                  // whole, no index (Gemini)
	callsInFinish                    // whole, in the finish chunk (Zhipu)
)

type usagePlace int

const (
	usageSeparate usagePlace = iota // a choices:[] chunk after the finish
	usageOnFinish                   // top-level usage on the finish chunk
	usageInChoice                   // choices[0].usage on the finish chunk
)

// hostedShape is what one hosted dialect changes in OpenAI's stream.
type hostedShape struct {
	chunkExtra     func(model string) map[string]any
	choiceExtra    map[string]any
	firstDelta     map[string]any
	noFinishKey    bool // non-final choices omit finish_reason (Gemini)
	noLogprobs     bool
	roleEveryDelta bool
	nullContent    bool // content:null beside reasoning
	hideReasoning  bool // OpenAI: counted, never streamed
	details        bool // OpenRouter's reasoning_details
	comments       bool // OpenRouter's SSE comments
	calls          callStyle
	toolFinish     string
	usage          usagePlace
	usageJSON      func(Usage) map[string]any
}

var hostedShapes = map[Dialect]hostedShape{
	DialectOpenAIPlatform: {
		chunkExtra: func(string) map[string]any {
			return map[string]any{"service_tier": "default", "system_fingerprint": "fp_scripted", "obfuscation": "x1Yz"}
		},
		firstDelta: map[string]any{"role": "assistant", "content": "", "refusal": nil}, hideReasoning: true,
		usageJSON: openAIUsage,
	},
	DialectOpenRouter: {
		chunkExtra:  func(string) map[string]any { return map[string]any{"provider": "OpenAI", "system_fingerprint": nil} },
		choiceExtra: map[string]any{"native_finish_reason": nil}, details: true, comments: true,
		usageJSON: openRouterUsage,
	},
	DialectMoonshot: {usage: usageInChoice},
	DialectQwen: {
		chunkExtra:  func(string) map[string]any { return map[string]any{"system_fingerprint": nil} },
		nullContent: true, calls: callsSplitNoID,
	},
	DialectZhipu:    {noLogprobs: true, calls: callsInFinish, usage: usageOnFinish},
	DialectTogether: {chunkExtra: func(string) map[string]any { return map[string]any{"usage": nil} }, roleEveryDelta: true, usage: usageOnFinish},
	DialectLMStudio: {
		chunkExtra: func(m string) map[string]any { return map[string]any{"system_fingerprint": m} }, noLogprobs: true,
	},
	DialectVLLM: {choiceExtra: map[string]any{"stop_reason": nil, "token_ids": nil}},
	DialectGemini: {
		noFinishKey: true, noLogprobs: true, roleEveryDelta: true, calls: callsWholeNoIdx, toolFinish: "stop",
	},
}

// buildHostedStream renders r in one of the hosted dialects.
func buildHostedStream(d Dialect, id, model string, created int64, r Reply, usage *Usage) streamPlan {
	sh := hostedShapes[d]
	var p streamPlan
	render := sh.usageJSON
	if render == nil {
		render = usageJSON
	}
	chunk := func(delta map[string]any, finish *string, extra map[string]any) {
		if sh.roleEveryDelta && delta["role"] == nil {
			delta["role"] = "assistant"
		}
		choice := map[string]any{"index": 0, "delta": delta}
		if finish != nil || !sh.noFinishKey {
			choice["finish_reason"] = finish
		}
		if !sh.noLogprobs {
			choice["logprobs"] = nil
		}
		for k, v := range sh.choiceExtra {
			choice[k] = v
		}
		if finish != nil && d == DialectOpenRouter {
			choice["native_finish_reason"] = *finish
		}
		if u, ok := extra["choice.usage"]; ok {
			choice["usage"] = u
			delete(extra, "choice.usage")
		}
		env := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": []any{choice}}
		if sh.chunkExtra != nil {
			for k, v := range sh.chunkExtra(model) {
				env[k] = v
			}
		}
		for k, v := range extra {
			env[k] = v
		}
		b, _ := json.Marshal(env)
		p.chunks = append(p.chunks, b)
	}
	if sh.comments {
		p.chunks = append(p.chunks, []byte(": OPENROUTER PROCESSING"))
	}
	first := map[string]any{"role": "assistant", "content": ""}
	if sh.firstDelta != nil {
		first = map[string]any{}
		for k, v := range sh.firstDelta {
			first[k] = v
		}
	}
	chunk(first, nil, nil)

	field := reasoningField(r)
	if !sh.hideReasoning {
		for i, s := range splitRunes(r.Reasoning, r.ChunkSize) {
			f := map[string]any{field: s}
			if sh.nullContent {
				f["content"] = nil
			}
			if sh.details {
				f["reasoning_details"] = []any{map[string]any{"type": "reasoning.text", "text": s, "format": "unknown", "index": i}}
			}
			chunk(f, nil, nil)
		}
	}
	for _, s := range splitRunes(r.Text, r.ChunkSize) {
		chunk(map[string]any{"content": s}, nil, nil)
	}
	if sh.comments {
		p.chunks = append(p.chunks, []byte(": OPENROUTER PROCESSING"))
	}
	var inFinish []any
	for i, tc := range r.ToolCalls {
		whole := map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}}
		if tc.Extra != "" {
			whole["extra_content"] = json.RawMessage(tc.Extra)
		}
		switch sh.calls {
		case callsWholeNoIdx:
			chunk(map[string]any{"tool_calls": []any{whole}}, nil, nil)
			continue
		case callsWhole, callsInFinish:
			whole["index"] = i
			if sh.calls == callsInFinish {
				inFinish = append(inFinish, whole)
			} else {
				chunk(map[string]any{"tool_calls": []any{whole}}, nil, nil)
			}
			continue
		}
		header := map[string]any{"index": i, "id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": ""}}
		if tc.Extra != "" {
			header["extra_content"] = json.RawMessage(tc.Extra)
		}
		chunk(map[string]any{"tool_calls": []any{header}}, nil, nil)
		for _, s := range splitRunes(tc.Arguments, r.ChunkSize) {
			piece := map[string]any{"index": i, "function": map[string]any{"arguments": s}}
			if sh.calls == callsSplitNoID {
				piece["id"], piece["type"] = "", "function"
				piece["function"].(map[string]any)["name"] = nil
			}
			chunk(map[string]any{"tool_calls": []any{piece}}, nil, nil)
		}
	}

	fr := finishReason(r)
	if len(r.ToolCalls) > 0 && r.FinishReason == "" && sh.toolFinish != "" {
		fr = sh.toolFinish
	}
	finishDelta := map[string]any{}
	if inFinish != nil {
		finishDelta["tool_calls"] = inFinish
	}
	extra := map[string]any{}
	if usage != nil && sh.usage != usageSeparate {
		if sh.usage == usageInChoice {
			extra["choice.usage"] = render(*usage)
		} else {
			extra["usage"] = render(*usage)
		}
		usage = nil
	}
	chunk(finishDelta, &fr, extra)
	if usage != nil {
		env := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": render(*usage)}
		if sh.chunkExtra != nil {
			for k, v := range sh.chunkExtra(model) {
				if k != "usage" {
					env[k] = v
				}
			}
		}
		b, _ := json.Marshal(env)
		p.chunks = append(p.chunks, b)
	}
	return p
}

// openAIUsage is OpenAI's usage object with its detail objects in full.
func openAIUsage(u Usage) map[string]any {
	m := usageJSON(u)
	m["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CachedTokens, "audio_tokens": 0}
	m["completion_tokens_details"] = map[string]any{"reasoning_tokens": u.ReasoningTokens, "audio_tokens": 0,
		"accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
	return m
}

// openRouterUsage adds what OpenRouter reports beside the counts: the
// cost in credits and the upstream's part of it.
func openRouterUsage(u Usage) map[string]any {
	m := usageJSON(u)
	m["cost"], m["is_byok"] = 0.000093, false
	m["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CachedTokens, "cache_write_tokens": 0, "audio_tokens": 0, "video_tokens": 0}
	m["completion_tokens_details"] = map[string]any{"reasoning_tokens": u.ReasoningTokens, "image_tokens": 0, "audio_tokens": 0}
	m["cost_details"] = map[string]any{"upstream_inference_cost": 0.000093}
	return m
}
