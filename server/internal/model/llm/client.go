package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"go.uber.org/zap"
)

// SessionHeader carries Request.SessionID so servers can correlate requests.
const SessionHeader = "X-GoVibe-Session"

// OpenAIClient streams chat completions from any OpenAI-compatible endpoint.
//
// Concurrency: immutable after New but for body, which guards itself;
// Stream may be called from many goroutines at once.
type OpenAIClient struct {
	profile  Profile
	provider string
	opts     Options
	log      *zap.Logger
	chat     openai.ChatCompletionService
	// baseURL is the profile's URL without userinfo: it appears in errors
	// and logs, which must never carry credentials.
	baseURL string
	host    string
	local   bool
	// body keeps the encoding of what consecutive requests repeat.
	body *bodyCache
}

var _ Client = (*OpenAIClient)(nil)

// New validates the profile and builds a client. A missing API key is not an
// error here (settings screens build clients before keys are entered); Stream
// reports it before sending anything.
func New(p Profile, o Options) (*OpenAIClient, error) {
	u, err := url.Parse(strings.TrimSpace(p.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid base URL %q: expected e.g. https://api.deepseek.com", p.BaseURL)
	}
	if strings.TrimSpace(p.Model) == "" {
		return nil, fmt.Errorf("profile %q has no model name", p.Name)
	}
	o = o.withDefaults()
	hc, err := newHTTPClient(o)
	if err != nil {
		return nil, err
	}
	c := &OpenAIClient{
		profile:  p,
		provider: p.ResolvedProvider(),
		opts:     o,
		log:      o.Logger.Named("llm"),
		baseURL:  displayURL(u),
		host:     u.Host,
		local:    isLoopback(u.Hostname()),
		body:     &bodyCache{},
	}
	// openai.NewClient would merge OPENAI_* environment variables (keys,
	// org ids, custom headers) into requests bound for other providers, so
	// the service is built from explicit options only.
	c.chat = openai.NewChatCompletionService(
		option.WithBaseURL(strings.TrimRight(u.String(), "/")+"/"),
		option.WithAPIKey(p.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	)
	return c, nil
}

// Profile returns the profile the client was built with.
func (c *OpenAIClient) Profile() Profile { return c.profile }

// Provider returns the resolved provider quirk set.
func (c *OpenAIClient) Provider() string { return c.provider }

func displayURL(u *url.URL) string {
	d := *u
	d.User = nil
	return strings.TrimRight(d.String(), "/")
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redact removes the API key from text that came from the provider: some
// echo the key back in their 401 messages.
func (c *OpenAIClient) redact(s string) string {
	if k := c.profile.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[redacted]")
	}
	return s
}

// Stream runs one request with retries. Text already delivered through
// onEvent stays valid unless an EventRetry follows it.
func (c *OpenAIClient) Stream(ctx context.Context, req Request, onEvent func(Event)) (*Response, error) {
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	if strings.TrimSpace(c.profile.APIKey) == "" && !c.local {
		return nil, &MissingAPIKeyError{Profile: c.profile.Name, BaseURL: c.baseURL}
	}
	body, err := c.requestBody(req)
	if err != nil {
		return nil, err
	}
	log := c.log.With(zap.String("model", c.profile.Model), zap.String("base_url", c.baseURL),
		zap.String("session", req.SessionID))
	for attempt := 1; ; attempt++ {
		start := time.Now()
		log.Debug("request", zap.Int("attempt", attempt), zap.Int("messages", len(req.Messages)),
			zap.Int("tools", len(req.Tools)))
		resp, out, emitted := c.attempt(ctx, body, req, onEvent)
		if out.err == nil {
			log.Debug("response", zap.Int("attempt", attempt), zap.String("finish", resp.FinishReason),
				zap.Int64("prompt_tokens", resp.Usage.PromptTokens), zap.Int64("cached_tokens", resp.Usage.CachedTokens),
				zap.Int64("completion_tokens", resp.Usage.CompletionTokens), zap.Duration("took", time.Since(start)))
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !out.retryable {
			log.Debug("request failed", zap.Int("attempt", attempt), zap.Error(out.err))
			return nil, out.err
		}
		if attempt >= c.opts.MaxAttempts {
			log.Warn("giving up", zap.Int("attempts", attempt), zap.Error(out.err))
			return nil, c.finalError(attempt, out)
		}
		delay := backoff(attempt, c.opts.BaseBackoff, c.opts.MaxBackoff)
		if out.retryAfter > 0 {
			if out.retryAfter > c.opts.MaxRetryAfter {
				return nil, c.finalError(attempt, out)
			}
			delay = out.retryAfter
		}
		reason := out.err.Error()
		log.Warn("retrying", zap.Int("attempt", attempt+1), zap.Duration("delay", delay), zap.String("reason", reason))
		if emitted {
			onEvent(Event{Kind: EventRetry, Attempt: attempt + 1, Reason: reason})
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

func (c *OpenAIClient) finalError(attempts int, out outcome) error {
	switch {
	case out.status == 429:
		var se *StreamError
		detail := ""
		if errors.As(out.err, &se) && se.Err != nil {
			detail = se.Err.Error()
		}
		return &RateLimitError{Attempts: attempts, RetryAfter: out.retryAfter, Detail: detail}
	case out.unreachable:
		return &UnreachableError{Host: c.host, Err: out.err}
	default:
		return &RetriesExhaustedError{Attempts: attempts, Last: out.err}
	}
}

// consume feeds the stream's chunks to acc until [DONE], the end of the
// body, or a broken or failed event.
func (c *OpenAIClient) consume(dec ssestream.Decoder, acc *accumulator, onEvent func(Event)) error {
	// One chunk serves every event: decodeChunk appends fresh choices to
	// its emptied slice and acc copies what it keeps, so reusing it saves
	// an allocation per delta.
	var chunk streamChunk
	for dec.Next() {
		data := dec.Event().Data
		if bytes.HasPrefix(data, doneData) {
			return nil
		}
		chunk.Choices, chunk.Usage = chunk.Choices[:0], nil
		if err := decodeChunk(data, &chunk); err != nil {
			return err
		}
		acc.add(&chunk, onEvent)
	}
	return dec.Err()
}

// doneData is the SSE terminator's data.
var doneData = []byte("[DONE]")

// attempt performs one HTTP request and consumes its stream. emitted says
// whether any delta reached the consumer (so a retry must be announced).
func (c *OpenAIClient) attempt(ctx context.Context, body []byte, req Request, onEvent func(Event)) (*Response, outcome, bool) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := newAttemptWatch(c.opts.IdleTimeout, cancel)
	defer w.stop()

	opts := []option.RequestOption{option.WithMiddleware(w.middleware())}
	if req.SessionID != "" {
		opts = append(opts, option.WithHeader(SessionHeader, req.SessionID))
	}
	for k, v := range c.profile.Wire.Headers {
		// A preset's extra headers never replace the key or the body type.
		if !strings.EqualFold(k, "Authorization") && !strings.EqualFold(k, "Content-Type") {
			opts = append(opts, option.WithHeader(k, v))
		}
	}
	// The request goes through openai-go (its headers, auth, middleware)
	// with the body requestBody encoded, "stream": true included; the SSE
	// framing is openai-go's too, but chunks are decoded into streamChunk
	// rather than ChatCompletionChunk: see chunk.go.
	var raw *http.Response
	opts = append(opts, option.WithRequestBody("application/json", body), option.WithResponseBodyInto(&raw))
	_, err := c.chat.New(actx, openai.ChatCompletionNewParams{}, opts...)
	acc := newAccumulator(c.profile.Wire)
	if dec := ssestream.NewDecoder(raw); dec != nil {
		// Deferred so a panicking consumer still releases the connection.
		defer dec.Close()
		if err == nil {
			err = c.consume(dec, acc, onEvent)
		}
	}
	status, header, errBody, sawDone, gotResp := w.snapshot()

	if ctx.Err() != nil {
		return nil, outcome{err: ctx.Err()}, acc.emitted
	}
	if errors.Is(context.Cause(actx), errIdle) {
		return nil, outcome{
			err:       &StreamError{Reason: fmt.Sprintf("no data from the model for %s", c.opts.IdleTimeout)},
			retryable: true,
		}, acc.emitted
	}
	if status >= 400 {
		return nil, c.classifyStatus(status, header, errBody, req), acc.emitted
	}
	if err != nil {
		if !gotResp {
			return nil, c.classifyTransport(err), acc.emitted
		}
		return nil, outcome{err: &StreamError{Reason: "stream broke", Err: err}, retryable: true}, acc.emitted
	}
	// openai-go ends iteration the same way on [DONE] and on a bare EOF. A
	// finish_reason without [DONE] is accepted: the answer is whole, only
	// the terminator (and maybe usage) is missing.
	if !sawDone && !acc.complete() {
		return nil, outcome{err: &StreamError{Reason: "stream ended before the model finished"}, retryable: true}, acc.emitted
	}
	return acc.response(), outcome{}, acc.emitted
}
