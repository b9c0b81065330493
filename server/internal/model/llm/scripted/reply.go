// Package scripted is an OpenAI-compatible chat-completions server for tests.
// It streams scripted replies exactly like real providers, injects faults,
// records every request, and checks the tool-call invariants real providers
// enforce. It is test infrastructure only.
package scripted

import (
	"encoding/json"
	"fmt"
	"time"
)

// ToolCall is one function call the scripted model makes. An empty ID is
// filled in by the server.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Malformed serves Arguments verbatim even when they are not valid
	// JSON, as weaker models sometimes produce; without it such a script
	// is refused as a mistake.
	Malformed bool `json:"malformed,omitempty"`
	// Extra is sent as the call's extra_content (raw JSON), as Gemini
	// sends a thought signature: {"google":{"thought_signature":"…"}}.
	Extra string `json:"extra,omitempty"`
}

// Cache-field styles for Usage.CacheFields.
const (
	CacheFieldsBoth     = "both" // the default
	CacheFieldsOpenAI   = "openai"
	CacheFieldsDeepSeek = "deepseek"
	CacheFieldsNone     = "none"
	// CacheFieldsMoonshot reports usage.cached_tokens at the top level.
	CacheFieldsMoonshot = "moonshot"
)

// Usage is reported in the final usage chunk. A nil *Usage on a Reply means
// "estimate": prompt = chars/4 of the messages, cached = the common prefix
// with the session's previous request rounded down to 64 tokens.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	CachedTokens     int64 `json:"cached_tokens"`
	ReasoningTokens  int64 `json:"reasoning_tokens,omitempty"`
	// CacheFields picks where cached tokens are reported: OpenAI's
	// prompt_tokens_details.cached_tokens, DeepSeek's prompt_cache_hit_tokens,
	// both (default) or none.
	CacheFields string `json:"cache_fields,omitempty"`
}

// FaultKind names a failure the server injects into one attempt.
type FaultKind string

const (
	FaultNone FaultKind = ""
	// FaultStatus answers with Status (and Retry-After, Body) instead of a stream.
	FaultStatus FaultKind = "status"
	// FaultReset sends AfterChunks chunks, then resets the TCP connection.
	FaultReset FaultKind = "reset"
	// FaultNoDone sends AfterChunks chunks, then ends the response cleanly
	// without finish_reason or [DONE], like a proxy cutting the stream.
	FaultNoDone FaultKind = "no_done"
	// FaultHang sends AfterChunks chunks, then sends nothing until the client
	// disconnects or the server closes.
	FaultHang FaultKind = "hang"
)

// Fault is one injected failure.
type Fault struct {
	Kind        FaultKind `json:"kind"`
	Status      int       `json:"status,omitempty"`
	RetryAfter  string    `json:"retry_after,omitempty"`
	Body        string    `json:"body,omitempty"`
	AfterChunks int       `json:"after_chunks,omitempty"`
}

// Status429 is a rate-limit answer with an optional Retry-After value
// (seconds or an HTTP date).
func Status429(retryAfter string) Fault {
	return Fault{Kind: FaultStatus, Status: 429, RetryAfter: retryAfter}
}

// Status500 is an internal server error.
func Status500() Fault { return Fault{Kind: FaultStatus, Status: 500} }

// StatusFault answers with any status and body.
func StatusFault(status int, body string) Fault {
	return Fault{Kind: FaultStatus, Status: status, Body: body}
}

// ResetAfter resets the connection after n chunks.
func ResetAfter(n int) Fault { return Fault{Kind: FaultReset, AfterChunks: n} }

// NoDoneAfter ends the stream cleanly but early after n chunks.
func NoDoneAfter(n int) Fault { return Fault{Kind: FaultNoDone, AfterChunks: n} }

// HangAfter stops sending after n chunks.
func HangAfter(n int) Fault { return Fault{Kind: FaultHang, AfterChunks: n} }

// Reply is what the scripted model answers to one request.
type Reply struct {
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningField is the delta field reasoning is sent in:
	// "reasoning_content" (default) or "reasoning".
	ReasoningField string     `json:"reasoning_field,omitempty"`
	Text           string     `json:"text,omitempty"`
	ToolCalls      []ToolCall `json:"tool_calls,omitempty"`
	Usage          *Usage     `json:"usage,omitempty"`
	// ChunkSize is the number of runes per content/reasoning/arguments
	// chunk; 0 means 6.
	ChunkSize int `json:"chunk_size,omitempty"`
	// ChunkDelay is slept between chunks (JSON: chunk_delay_ms).
	ChunkDelay time.Duration `json:"-"`
	// Faults[i] is applied to attempt i+1 of this reply; the reply is served
	// normally once the list is exhausted (or at a FaultNone entry).
	Faults []Fault `json:"faults,omitempty"`
	// FinishReason overrides "stop"/"tool_calls".
	FinishReason string `json:"finish_reason,omitempty"`
	// OmitDone leaves out the final `data: [DONE]` of an otherwise complete
	// stream, as some compatible servers do.
	OmitDone bool `json:"omit_done,omitempty"`
}

type replyJSON Reply

type replyWire struct {
	replyJSON
	ChunkDelayMS int64 `json:"chunk_delay_ms,omitempty"`
}

func (r Reply) MarshalJSON() ([]byte, error) {
	return json.Marshal(replyWire{replyJSON: replyJSON(r), ChunkDelayMS: r.ChunkDelay.Milliseconds()})
}

func (r *Reply) UnmarshalJSON(b []byte) error {
	var w replyWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = Reply(w.replyJSON)
	r.ChunkDelay = time.Duration(w.ChunkDelayMS) * time.Millisecond
	return nil
}

// Validate reports the first thing in r that a server could not serve.
func (r Reply) Validate() error {
	if r.ChunkSize < 0 {
		return fmt.Errorf("chunk_size must not be negative")
	}
	if r.ChunkDelay < 0 {
		return fmt.Errorf("chunk_delay_ms must not be negative")
	}
	if f := r.ReasoningField; f != "" && f != "reasoning_content" && f != "reasoning" {
		return fmt.Errorf("reasoning_field %q: use reasoning_content or reasoning", f)
	}
	for i, tc := range r.ToolCalls {
		if tc.Name == "" {
			return fmt.Errorf("tool_calls[%d]: name is required", i)
		}
		if tc.Arguments != "" && !tc.Malformed && !json.Valid([]byte(tc.Arguments)) {
			return fmt.Errorf("tool_calls[%d] (%s): arguments are not valid JSON: %s", i, tc.Name, tc.Arguments)
		}
		if tc.Extra != "" && !json.Valid([]byte(tc.Extra)) {
			return fmt.Errorf("tool_calls[%d] (%s): extra is not valid JSON: %s", i, tc.Name, tc.Extra)
		}
	}
	for i, f := range r.Faults {
		switch f.Kind {
		case FaultNone, FaultReset, FaultNoDone, FaultHang:
		case FaultStatus:
			if f.Status < 400 || f.Status > 599 {
				return fmt.Errorf("faults[%d]: status must be 400-599, got %d", i, f.Status)
			}
		default:
			return fmt.Errorf("faults[%d]: unknown kind %q (want status, reset, no_done or hang)", i, f.Kind)
		}
		if f.AfterChunks < 0 {
			return fmt.Errorf("faults[%d]: after_chunks must not be negative", i)
		}
	}
	if u := r.Usage; u != nil {
		switch u.CacheFields {
		case "", CacheFieldsBoth, CacheFieldsOpenAI, CacheFieldsDeepSeek, CacheFieldsMoonshot, CacheFieldsNone:
		default:
			return fmt.Errorf("usage.cache_fields must be both, openai, deepseek, moonshot or none, got %q", u.CacheFields)
		}
	}
	return nil
}
