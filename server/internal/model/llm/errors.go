package llm

import (
	"errors"
	"fmt"
	"time"
)

// Sentinels for errors.Is. Each typed error below reports Is() true for its
// sentinel so callers can pick whichever style reads better.
var (
	// ErrMissingAPIKey: the profile has no key and the endpoint is not local.
	ErrMissingAPIKey = errors.New("missing API key")
	// ErrToolsUnsupported: the model rejected the tools parameter. The agent
	// falls back to its text tool protocol when it sees this.
	ErrToolsUnsupported = errors.New("model does not support tool calling")
	// ErrContextTooLong: the prompt exceeds the model's context window.
	ErrContextTooLong = errors.New("prompt exceeds the model's context window")
	// ErrAuth: the endpoint rejected the API key.
	ErrAuth = errors.New("API key rejected")
	// ErrUnreachable: the endpoint's host could not be reached.
	ErrUnreachable = errors.New("model endpoint unreachable")
	// ErrRateLimited: still rate limited after every retry.
	ErrRateLimited = errors.New("rate limited")
	// ErrRetriesExhausted: transient failures persisted past the retry cap.
	ErrRetriesExhausted = errors.New("model request failed after retries")
	// ErrBudget: the session reached its money or token budget and was
	// not allowed to go on; no request was sent. The run ends with
	// agent.StatusBudget (govibe exec: exit code 3).
	ErrBudget = errors.New("session budget reached")
)

// MissingAPIKeyError is returned before any request is made.
type MissingAPIKeyError struct {
	Profile string
	BaseURL string
}

func (e *MissingAPIKeyError) Error() string {
	name := e.Profile
	if name == "" {
		name = e.BaseURL
	}
	return fmt.Sprintf("no API key is configured for %s (%s): add one in GoVibe settings", name, e.BaseURL)
}

func (e *MissingAPIKeyError) Is(target error) bool { return target == ErrMissingAPIKey }

// AuthError reports a 401/403. It names the base URL because the usual cause
// is a key for one provider pasted into another provider's profile.
type AuthError struct {
	BaseURL string
	Status  int
	Detail  string // provider's message, with the key redacted
}

func (e *AuthError) Error() string {
	msg := fmt.Sprintf("the API key was rejected by %s (HTTP %d)", e.BaseURL, e.Status)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg + "; check the key and the base URL in GoVibe settings"
}

func (e *AuthError) Is(target error) bool { return target == ErrAuth }

// UnreachableError reports DNS failures, refused connections and connect
// timeouts.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach model host %s: %v (check the base URL, your network and proxy settings)", e.Host, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

func (e *UnreachableError) Is(target error) bool { return target == ErrUnreachable }

// RateLimitError is returned when 429s outlast the retries, or when the
// provider asks for a wait longer than the client is willing to sleep.
type RateLimitError struct {
	Attempts   int
	RetryAfter time.Duration // last Retry-After the provider sent; 0 if none
	Detail     string
}

func (e *RateLimitError) Error() string {
	msg := fmt.Sprintf("the model provider is rate limiting requests (gave up after %d attempt(s))", e.Attempts)
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf("; it asked to retry after %s", e.RetryAfter.Round(time.Second))
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// ToolsUnsupportedError is a 400 whose message says tools are not supported.
type ToolsUnsupportedError struct {
	Model  string
	Detail string
}

func (e *ToolsUnsupportedError) Error() string {
	return fmt.Sprintf("model %s does not support tool calling: %s", e.Model, e.Detail)
}

func (e *ToolsUnsupportedError) Is(target error) bool { return target == ErrToolsUnsupported }

// ContextTooLongError is a 400 about the context length.
type ContextTooLongError struct {
	Model  string
	Detail string
	// Window is the profile's context window (what GoVibe budgeted for),
	// 0 when unknown; the provider's message may name the real one.
	Window int
	// ProviderWindow and Requested are the counts a provider states as
	// fields of its error (llama.cpp's n_ctx and n_prompt_tokens), 0 when
	// it states them only in words or not at all.
	ProviderWindow, Requested int
}

func (e *ContextTooLongError) Error() string {
	return fmt.Sprintf("the conversation is too long for model %s: %s", e.Model, e.Detail)
}

func (e *ContextTooLongError) Is(target error) bool { return target == ErrContextTooLong }

// RetriesExhaustedError wraps the last transient failure once the attempt
// cap is reached.
type RetriesExhaustedError struct {
	Attempts int
	Last     error
}

func (e *RetriesExhaustedError) Error() string {
	return fmt.Sprintf("the model request failed %d times in a row; last error: %v", e.Attempts, e.Last)
}

func (e *RetriesExhaustedError) Unwrap() error { return e.Last }

func (e *RetriesExhaustedError) Is(target error) bool { return target == ErrRetriesExhausted }

// APIError is any other non-retryable HTTP error from the provider.
type APIError struct {
	BaseURL string
	Status  int
	Detail  string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("model endpoint %s answered HTTP %d", e.BaseURL, e.Status)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// StreamError is a transient failure of one attempt: a status worth
// retrying, a broken or stalled stream. It is what RetriesExhaustedError
// wraps.
type StreamError struct {
	Reason string
	Status int // 0 for transport/stream failures
	Err    error
}

func (e *StreamError) Error() string {
	if e.Err != nil {
		return e.Reason + ": " + e.Err.Error()
	}
	return e.Reason
}

func (e *StreamError) Unwrap() error { return e.Err }
