package llm

import (
	"context"
	"encoding/json"
)

// Role of a chat message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // raw JSON text as the model produced it
	// Extra is the provider's own data on the call, sent back with it
	// where the wire says so (Gemini's extra_content with the thought
	// signature its function calls require back: Wire.ToolCallExtra).
	// Raw JSON text, so a ToolCall stays comparable.
	Extra string `json:"extra,omitempty"`
}

// Message is one entry of the model-visible conversation (the llmMessages
// track). It round-trips through JSON for persistence.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ReasoningContent is the model's thinking text. Only providers that
	// require it back (DeepSeek thinking mode during tool loops) are sent it.
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"` // for RoleTool
	Name             string     `json:"name,omitempty"`
}

// ToolDef describes one tool offered to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // JSON schema object
}

// Request is one chat-completion call.
type Request struct {
	Messages []Message
	Tools    []ToolDef
	// MaxTokens caps the output; 0 means the profile's default.
	MaxTokens int
	// SessionID lets test servers and logs correlate requests; it is sent as
	// the X-GoVibe-Session header, never inside the prompt.
	SessionID string
	// Purpose is what the request is for within its session: "" for the
	// session's own conversation, else PurposeCompaction, PurposeTitle,
	// PurposeReview or a plan role ("executor", "evaluator"). The accounting compares a request with the previous
	// one of the same session and purpose to say why its cache missed.
	Purpose string
}

// Request purposes besides the session's conversation (Request.Purpose).
const (
	PurposeCompaction = "compaction"
	PurposeTitle      = "title"
	PurposeReview     = "review"
)

// EventKind enumerates stream events.
type EventKind int

const (
	// EventText carries a content delta.
	EventText EventKind = iota + 1
	// EventReasoning carries a reasoning_content delta.
	EventReasoning
	// EventRetry says the stream broke and is being retried: everything
	// streamed since the attempt began must be discarded by the consumer.
	EventRetry
)

// Event is one streamed delta.
type Event struct {
	Kind    EventKind
	Text    string
	Attempt int    // for EventRetry: the attempt about to start (2, 3, ...)
	Reason  string // for EventRetry: why
}

// Response is the fully assembled result of one Request.
type Response struct {
	Content          string
	ReasoningContent string
	ToolCalls        []ToolCall
	FinishReason     string
	Usage            Usage
}

// Client streams one chat completion. onEvent is called synchronously from
// the streaming goroutine, in order; it must not block for long.
type Client interface {
	Stream(ctx context.Context, req Request, onEvent func(Event)) (*Response, error)
}
