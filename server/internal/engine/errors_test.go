package engine

import (
	"errors"
	"regexp"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
)

// In Chinese, an error is Chinese throughout: only the provider's own
// words (quoted) and names (URLs, HTTP) stay as they came (issue 16:
// "模型请求失败:the model request failed 5 times…").
func TestHumanErrorsAreNotHalfTranslated(t *testing.T) {
	e := &Engine{settings: config.Values{"language": "zh-CN"}}
	english := regexp.MustCompile(`\b(the|model|request|failed|times|error|attempt|rejected|reached|rate|server|stream)\b`)
	for _, err := range []error{
		&llm.RetriesExhaustedError{Attempts: 5, Last: &llm.StreamError{Reason: "server error (HTTP 502)", Status: 502}},
		&llm.RetriesExhaustedError{Attempts: 5, Last: &llm.StreamError{Reason: "stream broke"}},
		&llm.AuthError{BaseURL: "https://api.example.com/v1", Status: 401},
		&llm.RateLimitError{Attempts: 3},
		&llm.ContextTooLongError{Model: "m"},
		&llm.APIError{BaseURL: "https://api.example.com/v1", Status: 402},
	} {
		msg := e.humanError(err, "https://api.example.com/v1").Message
		if english.MatchString(msg) {
			t.Errorf("%T: %q mixes English in", err, msg)
		}
	}
	if msg := e.humanError(errors.Join(&llm.APIError{BaseURL: "u", Status: 400, Detail: "Insufficient Balance"}), "u").Message; !regexp.MustCompile(`服务商返回:Insufficient Balance`).MatchString(msg) {
		t.Errorf("the provider's words are not quoted: %q", msg)
	}
}
