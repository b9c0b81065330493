package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"syscall"
	"time"
)

// outcome is the verdict on one failed attempt.
type outcome struct {
	err        error
	retryable  bool
	status     int
	retryAfter time.Duration
	// unreachable marks transient connect failures so that, once retries
	// run out, the user is told the host is unreachable rather than "failed".
	unreachable bool
}

// classifyStatus turns an HTTP error response into a typed error.
func (c *OpenAIClient) classifyStatus(status int, header http.Header, body []byte, req Request) outcome {
	code, detail := errorDetail(body)
	detail = c.redact(detail)
	lower := strings.ToLower(code + " " + detail)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return outcome{err: &AuthError{BaseURL: c.baseURL, Status: status, Detail: detail}}
	case status == http.StatusTooManyRequests:
		if strings.Contains(lower, "insufficient_quota") || (strings.Contains(lower, "quota") && strings.Contains(lower, "exceeded your")) {
			// Waiting does not refill a quota.
			return outcome{err: &APIError{BaseURL: c.baseURL, Status: status, Detail: detail}}
		}
		return outcome{
			err:        &StreamError{Reason: "rate limited (HTTP 429)", Status: status, Err: detailErr(detail)},
			retryable:  true,
			status:     status,
			retryAfter: parseRetryAfter(header, time.Now()),
		}
	case status == http.StatusRequestTimeout || status >= 500:
		return outcome{
			err:        &StreamError{Reason: fmt.Sprintf("server error (HTTP %d)", status), Status: status, Err: detailErr(detail)},
			retryable:  true,
			status:     status,
			retryAfter: parseRetryAfter(header, time.Now()),
		}
	}
	if mentionsContextTooLong(lower) {
		return outcome{err: &ContextTooLongError{Model: c.profile.Model, Detail: detail, Window: c.profile.ContextWindow,
			ProviderWindow: int(gjson.GetBytes(body, "error.n_ctx").Int()), Requested: int(gjson.GetBytes(body, "error.n_prompt_tokens").Int())}}
	}
	// A request with tools that is rejected as invalid while naming the
	// tool parameters is a model or server without function calling,
	// however it words it ("Unrecognized request argument supplied:
	// tools", "tool_choice is not allowed", "functions: extra field").
	if len(req.Tools) > 0 && (mentionsToolsUnsupported(lower) ||
		(status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) && namesToolParams(lower)) {
		return outcome{err: &ToolsUnsupportedError{Model: c.profile.Model, Detail: detail}}
	}
	return outcome{err: &APIError{BaseURL: c.baseURL, Status: status, Detail: detail}}
}

func detailErr(detail string) error {
	if detail == "" {
		return nil
	}
	return errors.New(detail)
}

func mentionsToolsUnsupported(lower string) bool {
	mentionsTools := strings.Contains(lower, "tool") || strings.Contains(lower, "function call") ||
		strings.Contains(lower, "function_call") || strings.Contains(lower, "function-call")
	negated := strings.Contains(lower, "not support") || strings.Contains(lower, "unsupported") ||
		strings.Contains(lower, "not available") || strings.Contains(lower, "not enabled") ||
		strings.Contains(lower, "does not allow")
	return mentionsTools && negated
}

// toolParamRE matches the request parameters of function calling as
// words; "tool_calls" and a message role "tool" do not count, since those
// name the conversation, not the request's capabilities.
var toolParamRE = regexp.MustCompile(`(^|[^a-z_])(tools|tool_choice|functions|function_call|parallel_tool_calls)([^a-z_]|$)`)

func namesToolParams(lower string) bool { return toolParamRE.MatchString(lower) }

func mentionsContextTooLong(lower string) bool {
	for _, s := range []string{
		"context_length_exceeded", "maximum context length", "context length", "context window",
		"too many tokens", "prompt is too long", "reduce the length", "input is too long",
		// Other providers' wordings (providers/wire_test.go has each body):
		// Moonshot, Zhipu (code 1261), Qwen, llama.cpp, Gemini, Together.
		"model token limit", "exceeds max length", "range of input length", "context size",
		"exceed_context_size", "input token count", "`inputs` tokens",
	} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// errorDetail extracts the human message from the usual error shapes:
// {"error":{"message","code"}}, {"error":"..."}, {"message"}, {"detail"}, or
// plain text.
func errorDetail(body []byte) (code, msg string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		if len(v.Error) > 0 {
			var e struct {
				Message string `json:"message"`
				Code    any    `json:"code"`
				Type    string `json:"type"`
			}
			if json.Unmarshal(v.Error, &e) == nil && e.Message != "" {
				if e.Code != nil {
					code = fmt.Sprint(e.Code)
				} else {
					code = e.Type
				}
				return code, truncate(e.Message)
			}
			var s string
			if json.Unmarshal(v.Error, &s) == nil && s != "" {
				return "", truncate(s)
			}
		}
		if v.Message != "" {
			return "", truncate(v.Message)
		}
		if v.Detail != "" {
			return "", truncate(v.Detail)
		}
	}
	return "", truncate(strings.TrimSpace(string(body)))
}

func truncate(s string) string {
	const max = 500
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// parseRetryAfter reads Retry-After (seconds or HTTP date) and OpenAI's
// retry-after-ms. Zero means no usable hint.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if f, err := strconv.ParseFloat(ms, 64); err == nil && f > 0 {
			return time.Duration(f * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f <= 0 {
			return 0
		}
		return time.Duration(f * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// classifyTransport handles failures before any response arrived.
func (c *OpenAIClient) classifyTransport(err error) outcome {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsTemporary || dnsErr.IsTimeout {
			return outcome{err: &StreamError{Reason: "DNS lookup failed", Err: err}, retryable: true, unreachable: true}
		}
		return outcome{err: &UnreachableError{Host: c.host, Err: errors.New("host name not found")}}
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return outcome{err: &UnreachableError{Host: c.host, Err: errors.New("connection refused")}}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect") {
		if opErr.Timeout() {
			return outcome{err: &StreamError{Reason: "connect timed out", Err: err}, retryable: true, unreachable: true}
		}
		if errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH) {
			return outcome{err: &UnreachableError{Host: c.host, Err: err}}
		}
	}
	return outcome{err: &StreamError{Reason: "connection failed", Err: err}, retryable: true}
}

// backoff is exponential with equal jitter: half the step is fixed so that
// retries never bunch up at zero, the other half is random.
func backoff(attempt int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + rand.N(half+1)
}
