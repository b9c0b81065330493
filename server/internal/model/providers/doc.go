// Package providers holds the provider presets GoVibe ships (endpoint,
// header conventions, wire fields, known models) and the endpoint probes
// (list models, one-token probe) that "Add Model" and `govibe models` use.
// It depends on llm only for the quirk names; the engine and server use it,
// never the other way round.
//
// # Presets
//
// The presets (DeepSeek, OpenAI, OpenRouter, Moonshot, Qwen DashScope, Zhipu,
// Groq, Together, Mistral, Gemini, Ollama, LM Studio, vLLM, llama.cpp;
// table.go) hold base URL, documented headers, cache and reasoning fields,
// replay rule, tools/include_usage/reasoning_effort support and the provider's own thinking controls (DeepSeek thinking, Qwen enable_thinking/thinking_budget; llm.Wire.Thinking), known windows and
// prices, each entry with a Source: comment naming where it was checked and
// saying what could not be. Endpoint.Models (GET /models, with each model's
// window where the list states it: Groq's context_window, OpenRouter's and
// Together's context_length, vLLM's max_model_len; the preset's models when
// the endpoint has no list, 404, but never when it refused the key) and
// Endpoint.Probe (one streaming one-token request offering a tool) back
// `govibe models` and "Add Model", whose model step always ends with "Enter a
// model id…". The engine applies the preset a profile names
// (govibe.models[].preset, written by Add Model), else the hosted preset its
// base URL belongs to; local servers without a preset keep the client's
// defaults.
//
// # Errors
//
// Classify reads each provider's own error bodies into auth / rate limit /
// unknown model / context length (with the window and request sizes when the
// message names them) and Error.Advice says what to do, localised. Each preset
// has a recorded exchange (its cache-hit field and its own error bodies) in
// recorded/, replayed by this package's tests and by the engine's
// TestEachPresetsErrorsSayWhatToDo (a 400 that names a bad key or an unknown
// model, as Gemini's and DeepSeek's are, is read as such).
//
// # Dialects
//
// Every preset streams in its own dialect on the scripted server
// (llm/scripted: Config.Dialect, dialect.go and dialect_hosted.go, each cited:
// DeepSeek's content:null, Ollama's whole tool calls and role in every delta,
// llama.cpp's header-then-pieces tool calls, timings and legacy unasked usage
// on the finish chunk, Groq's x_groq.usage, Mistral's and Zhipu's usage on the
// finish chunk (Zhipu's calls whole in it), Moonshot's usage inside the finish
// choice, OpenRouter's SSE comments, reasoning_details and cost, DashScope's
// "id":"" on argument pieces, Together's "usage": null on every chunk, vLLM's
// stop_reason, Gemini's index-less calls and "stop" ending a tool-call reply,
// OpenAI's hidden reasoning) and with the provider's replay rule (Groq refuses
// a replayed reasoning_content; Gemini refuses a function call of the current
// turn sent back without the thought signature it came with).
// client_wire_test.go runs the real client per preset against the scripted
// server configured as that provider (Config.UsageUnasked, RejectFields,
// Moonshot's replay check).
package providers
