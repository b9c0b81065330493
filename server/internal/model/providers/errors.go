package providers

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/tidwall/gjson"
)

// Error kinds: what the user should do differs for each.
const (
	KindAuth          = "auth"
	KindRateLimit     = "rate_limit"
	KindUnknownModel  = "unknown_model"
	KindContextLength = "context_length"
	KindUnreachable   = "unreachable"
	KindOther         = "other"
)

// Error is a provider error read from its own error body.
type Error struct {
	Kind   string
	Status int
	Detail string // the provider's message, verbatim
	// Window and Requested are the token counts a context-length message
	// names, when it names them (0 otherwise).
	Window, Requested int
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s (HTTP %d): %s", e.Kind, e.Status, e.Detail)
}

// Advice says in the user's language what happened and what to do.
func (e *Error) Advice(lang i18n.Lang) string {
	switch e.Kind {
	case KindAuth:
		return i18n.T(lang, "The provider rejected the API key: check it, or run \"GoVibe: Add Model\" to enter it again. (%s)", e.Detail)
	case KindRateLimit:
		return i18n.T(lang, "The provider is rate-limiting this key: wait a minute, or pick another model. (%s)", e.Detail)
	case KindUnknownModel:
		return i18n.T(lang, "The provider does not know this model: pick one from its list (govibe models list). (%s)", e.Detail)
	case KindContextLength:
		if e.Window > 0 && e.Requested > 0 {
			return i18n.T(lang, "This model's window is %s; the request was %s: compact or pick a larger model.", kTokens(e.Window), kTokens(e.Requested))
		}
		return i18n.T(lang, "The request does not fit this model's window: compact or pick a larger model. (%s)", e.Detail)
	case KindUnreachable:
		return i18n.T(lang, "The provider cannot be reached: check the base URL, that the server is running, and the proxy. (%s)", e.Detail)
	}
	return i18n.T(lang, "The model request failed: %s", e.Detail)
}

func kTokens(n int) string {
	if n >= 1000 {
		return strconv.Itoa((n+500)/1000) + "k"
	}
	return strconv.Itoa(n)
}

// numbers pulls the token counts out of context-length messages. Providers
// phrase them differently: OpenAI "maximum context length is 128000 tokens.
// However, your messages resulted in 130000 tokens", vLLM/DeepSeek the same
// wording, llama.cpp "request (71000 tokens) exceeds the available context
// size (65536 tokens)", Mistral "Prompt contains 71000 tokens … too large
// for model with 65536 maximum context length".
var (
	reMaxCtx   = regexp.MustCompile(`(?i)(?:maximum context length is|context size \(|maximum context length of|model with|token limit:|must be <=|tokens allowed \(|input length should be \[1, ) ?(\d+)`)
	reReqToks  = regexp.MustCompile(`(?i)(?:resulted in|request \(|contains|requested (?:about )?|given: |input token count \() ?(\d+)`)
	reCtxWords = regexp.MustCompile(`(?i)context[_ ]length|context_size|context window|context size|maximum context|too many tokens|prompt is too long|exceeds the (available|maximum)|token limit|input token count|range of input length|max_new_tokens`)
)

// ContextCounts reads the model's window and the request's size out of a
// provider's context-length message; 0 for a count it does not name.
func ContextCounts(msg string) (window, requested int) {
	if m := reMaxCtx.FindStringSubmatch(msg); m != nil {
		window, _ = strconv.Atoi(m[1])
	}
	if m := reReqToks.FindStringSubmatch(msg); m != nil {
		requested, _ = strconv.Atoi(m[1])
	}
	return window, requested
}

// KTokens writes a token count the way windows are spoken of: 64k.
func KTokens(n int) string { return kTokens(n) }

// zhipuCodes maps Zhipu GLM's numeric business codes, which its error
// bodies carry instead of OpenAI's string codes.
var zhipuCodes = map[string]string{
	"1000": KindAuth, "1001": KindAuth, "1002": KindAuth,
	"1211": KindUnknownModel, "1261": KindContextLength,
	"1302": KindRateLimit, "1303": KindRateLimit, "1305": KindRateLimit,
}

// Classify reads a provider's HTTP error answer.
func Classify(status int, body []byte) *Error {
	if len(body) > 0 && body[0] == '[' {
		// Gemini's compatible endpoint wraps the error object in an array.
		body = []byte(gjson.GetBytes(body, "0").Raw)
	}
	msg := gjson.GetBytes(body, "error.message").String()
	if msg == "" {
		msg = gjson.GetBytes(body, "message").String() // Mistral, some local servers
	}
	if msg == "" {
		msg = gjson.GetBytes(body, "error").String() // Ollama: {"error":"…"}
	}
	if msg == "" {
		msg = snippet(body)
	}
	code := strings.ToLower(gjson.GetBytes(body, "error.code").String() + " " + gjson.GetBytes(body, "error.type").String() + " " + gjson.GetBytes(body, "code").String())
	lower := strings.ToLower(msg)
	e := &Error{Kind: KindOther, Status: status, Detail: msg}
	if k, ok := zhipuCodes[gjson.GetBytes(body, "error.code").String()]; ok && status != 404 {
		e.Kind = k
		return e
	}
	switch {
	case status == 429 || strings.Contains(code, "rate_limit"):
		e.Kind = KindRateLimit
	case status == 401 || status == 403 || strings.Contains(code, "invalid_api_key") || strings.Contains(lower, "api key"):
		e.Kind = KindAuth
	case strings.Contains(code, "context_length") || reCtxWords.MatchString(lower):
		e.Kind = KindContextLength
		e.Window, e.Requested = ContextCounts(msg)
		// llama.cpp's server names both counts as fields.
		if n := gjson.GetBytes(body, "error.n_ctx").Int(); n > 0 {
			e.Window = int(n)
		}
		if n := gjson.GetBytes(body, "error.n_prompt_tokens").Int(); n > 0 {
			e.Requested = int(n)
		}
	case status == 404 || strings.Contains(code, "model_not") || strings.Contains(code, "invalid_model") ||
		(strings.Contains(lower, "model") && (strings.Contains(lower, "not exist") || strings.Contains(lower, "not found") || strings.Contains(lower, "does not exist") || strings.Contains(lower, "invalid model") || strings.Contains(lower, "not a valid model") || strings.Contains(lower, "unknown model"))):
		e.Kind = KindUnknownModel
	}
	return e
}
