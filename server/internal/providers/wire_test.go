package providers

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/i18n"
	"github.com/govibe/govibe/server/internal/llm/scripted"
)

// providerError is one error answer as the provider's documentation shows
// it (status and body), and what GoVibe must make of it.
type providerError struct {
	status            int
	body              string
	kind              string
	window, requested int
}

// wire is each preset's recorded exchange: how it streams reasoning and
// cache hits, and its own error bodies for context-length exceeded, rate
// limit, invalid key and unknown model. Bodies follow each provider's
// public error documentation; local servers have no keys or rate limits.
var wire = map[string]struct {
	cacheStyle string
	errors     []providerError
}{
	"openai": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextLength, 128000, 131072},
		{429, `{"error":{"message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, KindAuth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `gpt-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}", KindUnknownModel, 0, 0},
	}},
	"deepseek": {scripted.CacheFieldsDeepSeek, []providerError{
		{400, `{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (139000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`, KindContextLength, 131072, 140000},
		{429, `{"error":{"message":"Rate Limit Reached","type":"rate_limit_error","param":null,"code":"rate_limit_error"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`, KindAuth, 0, 0},
		{400, `{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`, KindUnknownModel, 0, 0},
	}},
	"openrouter": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"error":{"code":400,"message":"This endpoint's maximum context length is 131072 tokens. However, you requested about 140000 tokens (139000 of text input, 1000 in the output). Please reduce the length of either one."}}`, KindContextLength, 131072, 140000},
		{429, `{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-day"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"code":401,"message":"No auth credentials found"}}`, KindAuth, 0, 0},
		{400, `{"error":{"code":400,"message":"openai/gpt-9 is not a valid model ID"}}`, KindUnknownModel, 0, 0},
	}},
	"moonshot": {scripted.CacheFieldsMoonshot, []providerError{
		{400, `{"error":{"message":"Invalid request: Your request exceeded model token limit: 262144","type":"invalid_request_error"}}`, KindContextLength, 262144, 0},
		{429, `{"error":{"message":"Your account org-x request reached organization max RPM: 3, please try again after 1 seconds","type":"rate_limit_reached_error"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid Authentication","type":"invalid_authentication_error"}}`, KindAuth, 0, 0},
		{404, `{"error":{"message":"Not found the model kimi-x or Permission denied","type":"resource_not_found_error"}}`, KindUnknownModel, 0, 0},
	}},
	"qwen": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"error":{"message":"Range of input length should be [1, 129024]","type":"invalid_request_error","param":null,"code":"invalid_parameter_error"}}`, KindContextLength, 129024, 0},
		{429, `{"error":{"message":"Requests rate limit exceeded, please try again later.","type":"limit_requests","param":null,"code":"limit_requests"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Incorrect API key provided. ","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, KindAuth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `qwen-x` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}", KindUnknownModel, 0, 0},
	}},
	"zhipu": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"error":{"code":"1261","message":"Prompt exceeds max length"}}`, KindContextLength, 0, 0},
		{429, `{"error":{"code":"1302","message":"High concurrency usage of this API, please reduce concurrency or contact customer service to increase limits"}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"code":"1000","message":"Authentication Failed"}}`, KindAuth, 0, 0},
		{400, `{"error":{"code":"1211","message":"Unknown Model, please check the model code."}}`, KindUnknownModel, 0, 0},
	}},
	"groq": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextLength, 0, 0},
		{429, "{\"error\":{\"message\":\"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 0, Requested 15000. Please try again in 15s.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}", KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid API Key","type":"invalid_request_error","code":"invalid_api_key"}}`, KindAuth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `llama-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}", KindUnknownModel, 0, 0},
	}},
	"together": {scripted.CacheFieldsNone, []providerError{
		{400, "{\"error\":{\"message\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32769. Given: 40000 `inputs` tokens and 512 `max_new_tokens`\",\"type\":\"invalid_request_error\",\"code\":null}}", KindContextLength, 32769, 40000},
		{429, `{"error":{"message":"You have exceeded the rate limit for this model.","type":"rate_limit","code":null}}`, KindRateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`, KindAuth, 0, 0},
		{404, `{"error":{"message":"Unable to access model x. Please visit https://api.together.ai/models to view the list of supported models.","type":"invalid_request_error","code":"model_not_available"}}`, KindUnknownModel, 0, 0},
	}},
	"mistral": {scripted.CacheFieldsNone, []providerError{
		{400, `{"object":"error","message":"Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length","type":"invalid_request_error","param":null,"code":null}`, KindContextLength, 131072, 140000},
		{429, `{"message":"Requests rate limit exceeded"}`, KindRateLimit, 0, 0},
		{401, `{"message":"Unauthorized","request_id":"abc"}`, KindAuth, 0, 0},
		{400, `{"object":"error","message":"Invalid model: mistral-x","type":"invalid_model","param":null,"code":"1500"}`, KindUnknownModel, 0, 0},
	}},
	"gemini": {scripted.CacheFieldsNone, []providerError{
		{400, `[{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`, KindContextLength, 1048576, 1200000},
		{429, `[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`, KindRateLimit, 0, 0},
		{400, `[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]`, KindAuth, 0, 0},
		{404, `[{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1main, or is not supported for generateContent.","status":"NOT_FOUND"}}]`, KindUnknownModel, 0, 0},
	}},
	"ollama": {scripted.CacheFieldsNone, []providerError{
		{404, `{"error":{"message":"model \"qwen9\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`, KindUnknownModel, 0, 0},
	}},
	"lmstudio": {scripted.CacheFieldsNone, []providerError{
		{400, `{"error":"The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input"}`, KindContextLength, 0, 0},
		{404, `{"error":{"message":"Model \"x\" not found. Please specify a valid model.","type":"invalid_request_error","code":"model_not_found"}}`, KindUnknownModel, 0, 0},
	}},
	"vllm": {scripted.CacheFieldsOpenAI, []providerError{
		{400, `{"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, KindContextLength, 32768, 40000},
		{401, `{"error":"Unauthorized"}`, KindAuth, 0, 0},
		{404, "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}", KindUnknownModel, 0, 0},
	}},
	"llamacpp": {scripted.CacheFieldsNone, []providerError{
		{400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":71000,"n_ctx":65536}}`, KindContextLength, 65536, 71000},
		{401, `{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}`, KindAuth, 0, 0},
	}},
}

func TestEveryPresetHasAWireRecord(t *testing.T) {
	for _, p := range All() {
		if _, ok := wire[p.ID]; !ok {
			t.Errorf("preset %s has no recorded exchange", p.ID)
		}
	}
}

// TestProbeEachPreset probes the scripted server configured as each
// provider: its reasoning field, its cache-hit field, a tool offered, and
// stream_options only where the provider accepts it.
func TestProbeEachPreset(t *testing.T) {
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) {
			w := wire[p.ID]
			srv := scripted.Start(t)
			key := "sk-test"
			srv.SetConfig(scripted.Config{APIKey: key})
			reply := scripted.Reply{Text: "OK", Usage: &scripted.Usage{PromptTokens: 9, CompletionTokens: 1, CachedTokens: 8, CacheFields: w.cacheStyle}}
			if p.ReasoningField != "" {
				reply.Reasoning, reply.ReasoningField = "thinking", p.ReasoningField
			}
			srv.Enqueue(reply)
			res, err := Endpoint{Preset: p, BaseURL: srv.URL(), APIKey: key}.Probe(context.Background(), "m1")
			if err != nil {
				t.Fatal(err)
			}
			if !res.Streaming || !res.Tools || res.Reasoning != (p.ReasoningField != "") {
				t.Errorf("probe = %+v", res)
			}
			// The scripted server, like OpenAI, sends usage only when asked.
			if res.Usage != p.IncludeUsage || res.Cached != (p.IncludeUsage && p.CacheField != "") {
				t.Errorf("usage/cache = %v/%v for %+v", res.Usage, res.Cached, p)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if !r.HasAuth || !r.Stream || r.IncludeUsage != p.IncludeUsage || len(r.Tools) != 1 || r.MaxTokens != 1 {
				t.Errorf("recorded request = %+v", r)
			}
			for k, v := range p.Headers {
				if got := r.Headers[http.CanonicalHeaderKey(k)]; got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestProviderErrorsSayWhatToDo replays each provider's error bodies
// through a real HTTP answer and checks the kind, the counts read from the
// message, and that the advice (en and zh-CN) names an action.
func TestProviderErrorsSayWhatToDo(t *testing.T) {
	actions := map[string][]string{
		KindContextLength: {"compact", "压缩"},
		KindRateLimit:     {"wait", "稍候"},
		KindAuth:          {"Add Model", "Add Model"},
		KindUnknownModel:  {"models list", "models list"},
	}
	for _, p := range All() {
		for _, pe := range wire[p.ID].errors {
			srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.StatusFault(pe.status, pe.body)}})
			_, err := Endpoint{Preset: p, BaseURL: srv.URL(), APIKey: "k"}.Probe(context.Background(), "m1")
			e, ok := err.(*Error)
			if !ok {
				t.Errorf("%s %d: err = %v", p.ID, pe.status, err)
				continue
			}
			if e.Kind != pe.kind || e.Window != pe.window || e.Requested != pe.requested {
				t.Errorf("%s %d: got %s window=%d requested=%d, want %s %d %d (%s)", p.ID, pe.status, e.Kind, e.Window, e.Requested, pe.kind, pe.window, pe.requested, e.Detail)
			}
			for i, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
				if adv := e.Advice(lang); !strings.Contains(adv, actions[pe.kind][i]) {
					t.Errorf("%s %s advice (%s) = %q", p.ID, pe.kind, lang, adv)
				}
			}
		}
	}
}

func TestContextAdviceNamesBothCounts(t *testing.T) {
	e := Classify(400, []byte(`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","n_prompt_tokens":71000,"n_ctx":64000}}`))
	want := "This model's window is 64k; the request was 71k: compact or pick a larger model."
	if got := e.Advice(i18n.English); got != want {
		t.Fatalf("advice = %q, want %q", got, want)
	}
}

func TestListModels(t *testing.T) {
	srv := scripted.Start(t)
	p, _ := Get("vllm")
	ids, err := Endpoint{Preset: p, BaseURL: srv.URL()}.ListModels(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != "scripted" {
		t.Fatalf("ids = %v, err = %v", ids, err)
	}
	_, err = Endpoint{Preset: p, BaseURL: "http://127.0.0.1:1"}.ListModels(context.Background())
	if e, ok := err.(*Error); !ok || e.Kind != KindUnreachable {
		t.Fatalf("unreachable err = %v", err)
	}
}
