package humanerr

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// In Chinese, an error is Chinese throughout: only the provider's own
// words (quoted) and names (URLs, HTTP) stay as they came (issue 16:
// "模型请求失败:the model request failed 5 times…").
func TestHumanErrorsAreNotHalfTranslated(t *testing.T) {
	tr := trIn("zh-CN")
	english := regexp.MustCompile(`\b(the|model|request|failed|times|error|attempt|rejected|reached|rate|server|stream)\b`)
	for _, err := range []error{
		&llm.RetriesExhaustedError{Attempts: 5, Last: &llm.StreamError{Reason: "server error (HTTP 502)", Status: 502}},
		&llm.RetriesExhaustedError{Attempts: 5, Last: &llm.StreamError{Reason: "stream broke"}},
		&llm.AuthError{BaseURL: "https://api.example.com/v1", Status: 401},
		&llm.RateLimitError{Attempts: 3},
		&llm.ContextTooLongError{Model: "m"},
		&llm.APIError{BaseURL: "https://api.example.com/v1", Status: 402},
	} {
		msg := Explain(tr, err, "https://api.example.com/v1").Message
		if english.MatchString(msg) {
			t.Errorf("%T: %q mixes English in", err, msg)
		}
	}
	if msg := Explain(tr, errors.Join(&llm.APIError{BaseURL: "u", Status: 400, Detail: "Insufficient Balance"}), "u").Message; !regexp.MustCompile(`服务商返回:Insufficient Balance`).MatchString(msg) {
		t.Errorf("the provider's words are not quoted: %q", msg)
	}
}

// TestContextTooLongSaysWhatToDo: the window and request sizes come from
// the provider's words, its fields (llama.cpp) or the profile, and the
// message names both ways out, in English and Chinese.
func TestContextTooLongSaysWhatToDo(t *testing.T) {
	cases := []struct {
		err    *llm.ContextTooLongError
		en, zh string
	}{
		{&llm.ContextTooLongError{Model: "m", Window: 128000, Detail: "This model's maximum context length is 65536 tokens. However, you requested 71000 tokens (70000 in the messages, 1000 in the completion)."},
			"This model's window is 66k; the request was 71k: compact the conversation (/compact) or pick a model with a larger window.",
			"此模型的窗口为 66k；本次请求为 71k：请压缩对话（/compact），或选择窗口更大的模型。"},
		{&llm.ContextTooLongError{Model: "m", Detail: "the request exceeds the available context size, try increasing it", ProviderWindow: 64000, Requested: 71000},
			"This model's window is 64k; the request was 71k:", "此模型的窗口为 64k；本次请求为 71k"},
		{&llm.ContextTooLongError{Model: "m", Window: 32768, Detail: "Prompt exceeds max length"},
			"The conversation no longer fits this model's 33k window: compact it (/compact) or pick a model with a larger window.", "对话已超出此模型 33k 的窗口"},
		{&llm.ContextTooLongError{Model: "kimi-k2"},
			"The conversation no longer fits the context window of kimi-k2: compact it (/compact) or pick a model with a larger window.", "对话已超出 kimi-k2 的上下文窗口"},
	}
	for _, c := range cases {
		for lang, want := range map[string]string{"en": c.en, "zh-CN": c.zh} {
			tr := trIn(lang)
			info := Explain(tr, c.err, "u")
			if !strings.HasPrefix(info.Message, want) || info.Action != "pickModel" || info.Code != "contextTooLong" {
				t.Errorf("%s: %+v, want a message starting %q", lang, info, want)
			}
		}
	}
}

// trIn is the translator for a govibe.language setting with no editor
// locale, as the engine's Tr builds it.
func trIn(setting string) func(string, ...any) string {
	lang := i18n.Pick(setting, "")
	return func(msg string, args ...any) string { return i18n.T(lang, msg, args...) }
}
