// Package recorded holds each provider preset's recorded exchange: where
// its stream reports cache hits, and its own error bodies for
// context-length exceeded, rate limit, invalid key and unknown model, as
// the provider's public error documentation shows them. The providers
// tests replay them against the chat client and the probe, the engine's
// tests check the words a person reads for each. Local servers have no
// keys or rate limits. Test support only.
package recorded

import "github.com/govibe/govibe/server/internal/model/llm/scripted"

// Error kinds, the same words as the providers package's Kind constants.
const (
	Auth          = "auth"
	RateLimit     = "rate_limit"
	UnknownModel  = "unknown_model"
	ContextLength = "context_length"
)

// Error is one error answer (status and body) and what GoVibe must make
// of it: its kind and, for a context-length error, the counts it names.
type Error struct {
	Status            int
	Body              string
	Kind              string
	Window, Requested int
}

// Exchange is one preset's record.
type Exchange struct {
	// CacheStyle is how its usage reports cache hits (scripted.CacheFields*).
	CacheStyle string
	Errors     []Error
}

// Exchanges is every preset's record, by preset id.
var Exchanges = map[string]Exchange{
	"openai": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, ContextLength, 128000, 131072},
		{429, `{"error":{"message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`, RateLimit, 0, 0},
		{401, `{"error":{"message":"Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, Auth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `gpt-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}", UnknownModel, 0, 0},
	}},
	"deepseek": {CacheStyle: scripted.CacheFieldsDeepSeek, Errors: []Error{
		{400, `{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (139000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`, ContextLength, 131072, 140000},
		{429, `{"error":{"message":"Rate Limit Reached","type":"rate_limit_error","param":null,"code":"rate_limit_error"}}`, RateLimit, 0, 0},
		{401, `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`, Auth, 0, 0},
		{400, `{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`, UnknownModel, 0, 0},
	}},
	"openrouter": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"error":{"code":400,"message":"This endpoint's maximum context length is 131072 tokens. However, you requested about 140000 tokens (139000 of text input, 1000 in the output). Please reduce the length of either one."}}`, ContextLength, 131072, 140000},
		{429, `{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-day"}}`, RateLimit, 0, 0},
		{401, `{"error":{"code":401,"message":"No auth credentials found"}}`, Auth, 0, 0},
		{400, `{"error":{"code":400,"message":"openai/gpt-9 is not a valid model ID"}}`, UnknownModel, 0, 0},
	}},
	"moonshot": {CacheStyle: scripted.CacheFieldsMoonshot, Errors: []Error{
		{400, `{"error":{"message":"Invalid request: Your request exceeded model token limit: 262144","type":"invalid_request_error"}}`, ContextLength, 262144, 0},
		{429, `{"error":{"message":"Your account org-x request reached organization max RPM: 3, please try again after 1 seconds","type":"rate_limit_reached_error"}}`, RateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid Authentication","type":"invalid_authentication_error"}}`, Auth, 0, 0},
		{404, `{"error":{"message":"Not found the model kimi-x or Permission denied","type":"resource_not_found_error"}}`, UnknownModel, 0, 0},
	}},
	"qwen": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"error":{"message":"Range of input length should be [1, 129024]","type":"invalid_request_error","param":null,"code":"invalid_parameter_error"}}`, ContextLength, 129024, 0},
		{429, `{"error":{"message":"Requests rate limit exceeded, please try again later.","type":"limit_requests","param":null,"code":"limit_requests"}}`, RateLimit, 0, 0},
		{401, `{"error":{"message":"Incorrect API key provided. ","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, Auth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `qwen-x` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}", UnknownModel, 0, 0},
	}},
	"zhipu": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"error":{"code":"1261","message":"Prompt exceeds max length"}}`, ContextLength, 0, 0},
		{429, `{"error":{"code":"1302","message":"High concurrency usage of this API, please reduce concurrency or contact customer service to increase limits"}}`, RateLimit, 0, 0},
		{401, `{"error":{"code":"1000","message":"Authentication Failed"}}`, Auth, 0, 0},
		{400, `{"error":{"code":"1211","message":"Unknown Model, please check the model code."}}`, UnknownModel, 0, 0},
	}},
	"groq": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, ContextLength, 0, 0},
		{429, "{\"error\":{\"message\":\"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 0, Requested 15000. Please try again in 15s.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}", RateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid API Key","type":"invalid_request_error","code":"invalid_api_key"}}`, Auth, 0, 0},
		{404, "{\"error\":{\"message\":\"The model `llama-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}", UnknownModel, 0, 0},
	}},
	"together": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{400, "{\"error\":{\"message\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32769. Given: 40000 `inputs` tokens and 512 `max_new_tokens`\",\"type\":\"invalid_request_error\",\"code\":null}}", ContextLength, 32769, 40000},
		{429, `{"error":{"message":"You have exceeded the rate limit for this model.","type":"rate_limit","code":null}}`, RateLimit, 0, 0},
		{401, `{"error":{"message":"Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`, Auth, 0, 0},
		{404, `{"error":{"message":"Unable to access model x. Please visit https://api.together.ai/models to view the list of supported models.","type":"invalid_request_error","code":"model_not_available"}}`, UnknownModel, 0, 0},
	}},
	"mistral": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{400, `{"object":"error","message":"Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length","type":"invalid_request_error","param":null,"code":null}`, ContextLength, 131072, 140000},
		{429, `{"message":"Requests rate limit exceeded"}`, RateLimit, 0, 0},
		{401, `{"message":"Unauthorized","request_id":"abc"}`, Auth, 0, 0},
		{400, `{"object":"error","message":"Invalid model: mistral-x","type":"invalid_model","param":null,"code":"1500"}`, UnknownModel, 0, 0},
	}},
	"gemini": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{400, `[{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`, ContextLength, 1048576, 1200000},
		{429, `[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`, RateLimit, 0, 0},
		{400, `[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]`, Auth, 0, 0},
		{404, `[{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1main, or is not supported for generateContent.","status":"NOT_FOUND"}}]`, UnknownModel, 0, 0},
	}},
	"ollama": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{404, `{"error":{"message":"model \"qwen9\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`, UnknownModel, 0, 0},
	}},
	"lmstudio": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{400, `{"error":"The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input"}`, ContextLength, 0, 0},
		{404, `{"error":{"message":"Model \"x\" not found. Please specify a valid model.","type":"invalid_request_error","code":"model_not_found"}}`, UnknownModel, 0, 0},
	}},
	"vllm": {CacheStyle: scripted.CacheFieldsOpenAI, Errors: []Error{
		{400, `{"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, ContextLength, 32768, 40000},
		{401, `{"error":"Unauthorized"}`, Auth, 0, 0},
		{404, "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}", UnknownModel, 0, 0},
	}},
	"llamacpp": {CacheStyle: scripted.CacheFieldsNone, Errors: []Error{
		{400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":71000,"n_ctx":65536}}`, ContextLength, 65536, 71000},
		{401, `{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}`, Auth, 0, 0},
	}},
}
