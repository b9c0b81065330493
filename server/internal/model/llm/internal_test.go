package llm

import (
	"errors"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{http.Header{"Retry-After": {"0.25"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond},
		{http.Header{}, 0},
		{nil, 0},
	}
	for _, c := range cases {
		if got := parseRetryAfter(c.h, now); got != c.want {
			t.Errorf("parseRetryAfter(%v) = %s, want %s", c.h, got, c.want)
		}
	}
}

func TestBackoffGrowsWithJitterAndCap(t *testing.T) {
	base, max := 100*time.Millisecond, time.Second
	for attempt := 1; attempt <= 8; attempt++ {
		step := time.Duration(math.Min(float64(base)*math.Pow(2, float64(attempt-1)), float64(max)))
		seen := map[time.Duration]bool{}
		for range 200 {
			d := backoff(attempt, base, max)
			if d < step/2 || d > step {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, d, step/2, step)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Fatalf("attempt %d: no jitter (%d distinct values)", attempt, len(seen))
		}
	}
}

func TestClassifyTransport(t *testing.T) {
	c := &OpenAIClient{host: "api.example.test"}
	dns := &net.DNSError{Err: "no such host", Name: "api.example.test", IsNotFound: true}
	out := c.classifyTransport(&url.Error{Op: "Post", URL: "https://api.example.test", Err: &net.OpError{Op: "dial", Err: dns}})
	var ue *UnreachableError
	if out.retryable || !errors.As(out.err, &ue) || !strings.Contains(out.err.Error(), "api.example.test") || !strings.Contains(out.err.Error(), "not found") {
		t.Fatalf("DNS not found: %+v", out)
	}
	tmp := &net.DNSError{Err: "timeout", Name: "x", IsTimeout: true}
	if out := c.classifyTransport(tmp); !out.retryable || !out.unreachable {
		t.Fatalf("DNS timeout should be retried: %+v", out)
	}
	if out := c.classifyTransport(errors.New("read: connection reset by peer")); !out.retryable {
		t.Fatalf("reset should be retried: %+v", out)
	}
}

func TestClassifyStatusMessages(t *testing.T) {
	c := &OpenAIClient{profile: Profile{BaseURL: "https://api.deepseek.com", Model: "m", APIKey: "sk-abcdef"}, baseURL: "https://api.deepseek.com"}
	tools := Request{Tools: []ToolDef{{Name: "x"}}}
	cases := []struct {
		status int
		body   string
		req    Request
		target error
		retry  bool
	}{
		{400, `{"error":{"message":"deepseek-reasoner does not support Function Calling"}}`, tools, ErrToolsUnsupported, false},
		{400, `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`, tools, ErrToolsUnsupported, false},
		// Any 400 naming the request's tool parameters.
		{400, `{"error":{"message":"Unrecognized request argument supplied: tools","type":"invalid_request_error"}}`, tools, ErrToolsUnsupported, false},
		{400, `{"error":{"message":"'tool_choice' is not allowed for this model"}}`, tools, ErrToolsUnsupported, false},
		{422, `{"detail":[{"loc":["body","functions"],"msg":"extra fields not permitted"}]}`, tools, ErrToolsUnsupported, false},
		// Without tools in the request, the same text is an ordinary error.
		{400, `{"error":{"message":"Unrecognized request argument supplied: tools"}}`, Request{}, nil, false},
		// Mentions tools but is a pairing error, not lack of support.
		{400, `{"error":{"message":"messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"}}`, tools, nil, false},
		{400, `{"error":{"message":"This model's maximum context length is 65536 tokens","code":"context_length_exceeded"}}`, Request{}, ErrContextTooLong, false},
		{401, `{"error":{"message":"Authentication Fails, Your api key: sk-abcdef is invalid"}}`, Request{}, ErrAuth, false},
		{429, `{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}`, Request{}, nil, false},
		{429, `busy`, Request{}, nil, true},
		{502, `<html>bad gateway</html>`, Request{}, nil, true},
		{402, `{"error":{"message":"Insufficient Balance"}}`, Request{}, nil, false},
	}
	for _, tc := range cases {
		out := c.classifyStatus(tc.status, nil, []byte(tc.body), tc.req)
		if out.retryable != tc.retry {
			t.Errorf("%d %s: retryable = %v", tc.status, tc.body, out.retryable)
		}
		if tc.target == nil && errors.Is(out.err, ErrToolsUnsupported) {
			t.Errorf("%d %s: misread as tools unsupported", tc.status, tc.body)
		}
		if tc.target != nil && !errors.Is(out.err, tc.target) {
			t.Errorf("%d %s: err %v is not %v", tc.status, tc.body, out.err, tc.target)
		}
		if strings.Contains(out.err.Error(), "sk-abcdef") {
			t.Errorf("key leaked: %v", out.err)
		}
		if !tc.retry && tc.target == nil {
			var ae *APIError
			if !errors.As(out.err, &ae) || !strings.Contains(out.err.Error(), "api.deepseek.com") {
				t.Errorf("%d: want APIError naming the endpoint, got %v", tc.status, out.err)
			}
		}
	}
}

func TestProxySelection(t *testing.T) {
	pf, err := proxyFunc("http://proxy.corp.test:3128")
	if err != nil {
		t.Fatal(err)
	}
	get := func(raw string) string {
		u, _ := url.Parse(raw)
		p, err := pf(&http.Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if p == nil {
			return ""
		}
		return p.String()
	}
	if got := get("https://api.deepseek.com/chat/completions"); got != "http://proxy.corp.test:3128" {
		t.Fatalf("remote host proxy = %q", got)
	}
	if got := get("http://127.0.0.1:8080/v1"); got != "" {
		t.Fatalf("loopback must go direct, got %q", got)
	}
	if _, err := proxyFunc("::not a url"); err == nil || !strings.Contains(err.Error(), "invalid proxy URL") {
		t.Fatalf("bad proxy err = %v", err)
	}
}

func TestNewValidatesProfile(t *testing.T) {
	for _, p := range []Profile{
		{BaseURL: "api.deepseek.com", Model: "m"},
		{BaseURL: "ftp://x", Model: "m"},
		{BaseURL: "https://x"},
	} {
		if _, err := New(p, Options{}); err == nil {
			t.Errorf("New(%+v) accepted an invalid profile", p)
		}
	}
	if _, err := New(Profile{BaseURL: "https://x", Model: "m"}, Options{Proxy: "::bad"}); err == nil {
		t.Error("New accepted an invalid proxy")
	}
}

func TestProviderDetectionAndCost(t *testing.T) {
	for raw, want := range map[string]string{
		"https://api.deepseek.com":     ProviderDeepSeek,
		"https://api.openai.com/v1":    ProviderOpenAI,
		"http://localhost:11434/v1":    ProviderGeneric,
		"https://openrouter.ai/api/v1": ProviderGeneric,
	} {
		if got := (Profile{BaseURL: raw}).ResolvedProvider(); got != want {
			t.Errorf("%s: provider %q, want %q", raw, got, want)
		}
	}
	if got := (Profile{BaseURL: "https://api.openai.com", Provider: "DeepSeek"}).ResolvedProvider(); got != ProviderDeepSeek {
		t.Errorf("explicit provider ignored: %q", got)
	}
	d := DefaultProfile()
	if d.BaseURL != "https://api.deepseek.com" || d.Model != "deepseek-reasoner" || d.ContextWindow != 128000 || d.MaxOutputTokens != 32000 {
		t.Fatalf("default profile = %+v", d)
	}
	p := Profile{PriceInput: 2, PriceCachedInput: 0.5, PriceOutput: 8}
	got := p.Cost(Usage{PromptTokens: 1_000_000, CachedTokens: 400_000, CompletionTokens: 500_000})
	if want := 0.6*2 + 0.4*0.5 + 0.5*8; math.Abs(got-want) > 1e-9 {
		t.Fatalf("cost = %v, want %v", got, want)
	}
}

func TestInvalidToolSchemaFailsBeforeSending(t *testing.T) {
	c, err := New(Profile{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(t.Context(), Request{
		Messages: []Message{{Role: RoleUser, Content: "x"}},
		Tools:    []ToolDef{{Name: "broken", Parameters: []byte(`{"type":`)}},
	}, nil)
	if err == nil || !strings.Contains(err.Error(), `tool "broken" has an invalid parameters schema`) {
		t.Fatalf("err = %v", err)
	}
	_, err = c.Stream(t.Context(), Request{Messages: []Message{{Role: "robot", Content: "x"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), `unknown role "robot"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestBaseURLCredentialsNeverShown(t *testing.T) {
	c, err := New(Profile{BaseURL: "https://bob:hunter2@gw.example.test/v1/", Model: "m"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(t.Context(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}}, nil)
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v", err)
	}
	out := c.classifyStatus(401, nil, nil, Request{})
	if strings.Contains(out.err.Error(), "hunter2") || !strings.Contains(out.err.Error(), "https://gw.example.test/v1") {
		t.Fatalf("auth error = %v", out.err)
	}
}
