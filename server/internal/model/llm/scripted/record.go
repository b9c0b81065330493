package scripted

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Message is one parsed request message. ReasoningContent is nil when the
// field was absent, so tests can tell "absent" from "empty".
type Message struct {
	Role             string     `json:"role"`
	Content          string     `json:"content"`
	ReasoningContent *string    `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
	Name             string     `json:"name,omitempty"`
}

// Tool is one parsed tool definition.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// PrefixStats compares a request's messages with the previous request of
// the same session, the way a provider's prefix cache would.
type PrefixStats struct {
	// Chars is the length of this request's canonical messages JSON.
	Chars int `json:"chars"`
	// PrevChars is the previous request's length; 0 for the first request.
	PrevChars int `json:"prev_chars"`
	// CommonChars is the longest common prefix with the previous request.
	CommonChars int `json:"common_chars"`
	// CommonTokens estimates CommonChars in tokens (chars/4).
	CommonTokens int `json:"common_tokens"`
}

// RecordedRequest is everything the server saw of one request and how it
// answered. Values returned by Server accessors are snapshots.
type RecordedRequest struct {
	Seq     int               `json:"seq"`
	Time    time.Time         `json:"time"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Session string            `json:"session,omitempty"`
	Headers map[string]string `json:"headers"`
	// HasAuth says an Authorization header was present; its value is never
	// recorded (Headers shows "[redacted]").
	HasAuth      bool            `json:"has_auth"`
	Model        string          `json:"model"`
	Stream       bool            `json:"stream"`
	IncludeUsage bool            `json:"include_usage"`
	MaxTokens    int             `json:"max_tokens,omitempty"`
	Messages     []Message       `json:"messages"`
	Tools        []Tool          `json:"tools,omitempty"`
	Body         json.RawMessage `json:"body"`
	// Attempt is 1 for a new request and n for the (n-1)th identical retry
	// of the same session's previous request.
	Attempt    int         `json:"attempt"`
	Prefix     PrefixStats `json:"prefix"`
	Violations []string    `json:"violations,omitempty"`
	// Status is the HTTP status sent; Outcome says how the answer ended:
	// "ok", "status", "reset", "no_done", "hang", "rejected", "client_gone".
	Status     int    `json:"status"`
	Outcome    string `json:"outcome"`
	ClientGone bool   `json:"client_gone"`
	// Reply is what was served (after fault selection), when one was.
	Reply *Reply `json:"reply,omitempty"`
	Fault *Fault `json:"fault,omitempty"`

	canonical string
}

// LastUserMessage returns the content of the last user message.
func (r *RecordedRequest) LastUserMessage() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// LatestInput returns what the model is responding to: the trailing tool
// result if the conversation ends with one ("tool"), else the last user
// message ("user").
func (r *RecordedRequest) LatestInput() (kind, text string) {
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "tool" {
		return "tool", r.Messages[n-1].Content
	}
	return "user", r.LastUserMessage()
}

func recordHeaders(h http.Header) (map[string]string, bool) {
	out := make(map[string]string, len(h))
	hasAuth := false
	for k, v := range h {
		if strings.EqualFold(k, "Authorization") {
			hasAuth = true
			out[k] = "[redacted]"
			continue
		}
		out[k] = strings.Join(v, ", ")
	}
	return out, hasAuth
}

// wireBody is the subset of the request body the server interprets.
type wireBody struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
	Messages            []json.RawMessage `json:"messages"`
	Tools               []struct {
		Type     string `json:"type"`
		Function Tool   `json:"function"`
	} `json:"tools"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent *string         `json:"reasoning_content"`
	ToolCallID       string          `json:"tool_call_id"`
	Name             string          `json:"name"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
		ExtraContent json.RawMessage `json:"extra_content"`
	} `json:"tool_calls"`
}

// parseBody fills the request fields from the JSON body.
func (r *RecordedRequest) parseBody(body []byte) error {
	var wb wireBody
	if err := json.Unmarshal(body, &wb); err != nil {
		return fmt.Errorf("invalid JSON body: %v", err)
	}
	r.Model = wb.Model
	r.Stream = wb.Stream
	r.IncludeUsage = wb.StreamOptions != nil && wb.StreamOptions.IncludeUsage
	r.MaxTokens = wb.MaxTokens
	if r.MaxTokens == 0 {
		r.MaxTokens = wb.MaxCompletionTokens
	}
	for _, t := range wb.Tools {
		r.Tools = append(r.Tools, t.Function)
	}
	canon := make([]any, 0, len(wb.Messages))
	for i, raw := range wb.Messages {
		var wm wireMessage
		if err := json.Unmarshal(raw, &wm); err != nil {
			return fmt.Errorf("messages[%d]: %v", i, err)
		}
		m := Message{Role: wm.Role, ReasoningContent: wm.ReasoningContent, ToolCallID: wm.ToolCallID, Name: wm.Name}
		m.Content = flattenContent(wm.Content)
		for _, tc := range wm.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments, Extra: string(tc.ExtraContent)})
		}
		r.Messages = append(r.Messages, m)
		var v any
		_ = json.Unmarshal(raw, &v)
		canon = append(canon, v)
	}
	// Re-marshalling sorts object keys, so two requests that differ only in
	// key order (which providers' caches would also treat alike) compare equal.
	c, _ := json.Marshal(canon)
	r.canonical = string(c)
	return nil
}

// flattenContent accepts a string or an array of {type:text,text} parts.
func flattenContent(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// checkToolPairing enforces what real providers reject with a 400: every
// tool message answers a call of the nearest preceding assistant message,
// and every call is answered before the next non-tool message or the end.
func checkToolPairing(msgs []Message) []string {
	var out []string
	pending := map[string]int{} // call id -> assistant message index
	var order []string
	flushPending := func(at string) {
		for _, id := range order {
			if idx, ok := pending[id]; ok {
				out = append(out, fmt.Sprintf("assistant message %d: tool call %q has no tool result before %s", idx, id, at))
			}
		}
		pending = map[string]int{}
		order = nil
	}
	answered := map[string]bool{}
	for i, m := range msgs {
		switch m.Role {
		case "tool":
			if m.ToolCallID == "" {
				out = append(out, fmt.Sprintf("message %d: tool message without tool_call_id", i))
				continue
			}
			if _, ok := pending[m.ToolCallID]; ok {
				delete(pending, m.ToolCallID)
				answered[m.ToolCallID] = true
				continue
			}
			if answered[m.ToolCallID] {
				out = append(out, fmt.Sprintf("message %d: tool call %q answered twice", i, m.ToolCallID))
			} else {
				out = append(out, fmt.Sprintf("message %d: tool message %q does not answer a preceding assistant tool call", i, m.ToolCallID))
			}
		default:
			flushPending(fmt.Sprintf("message %d (%s)", i, m.Role))
			if m.Role == "assistant" {
				for _, tc := range m.ToolCalls {
					if tc.ID == "" {
						out = append(out, fmt.Sprintf("message %d: tool call %q without id", i, tc.Name))
						continue
					}
					if _, dup := pending[tc.ID]; dup || answered[tc.ID] {
						out = append(out, fmt.Sprintf("message %d: duplicate tool call id %q", i, tc.ID))
						continue
					}
					pending[tc.ID] = i
					order = append(order, tc.ID)
				}
			}
		}
	}
	flushPending("the end of the conversation")
	return out
}

// checkProviderQuirks enforces the provider's reasoning_content rules.
func checkProviderQuirks(provider string, msgs []Message) []string {
	var out []string
	switch provider {
	case "deepseek", "moonshot":
		// Moonshot's thinking models document the same rule as DeepSeek:
		// reasoning_content stays with the tool-call turns it came with.
		start := 0
		check := func(end int) {
			hasTool := false
			for i := start; i < end; i++ {
				if msgs[i].Role == "assistant" && len(msgs[i].ToolCalls) > 0 {
					hasTool = true
				}
			}
			if !hasTool {
				return
			}
			for i := start; i < end; i++ {
				if msgs[i].Role == "assistant" && msgs[i].ReasoningContent == nil {
					// DeepSeek's own wording.
					out = append(out, fmt.Sprintf("Missing `reasoning_content` field in the assistant message at message index %d", i))
				}
			}
		}
		for i, m := range msgs {
			if m.Role == "user" {
				check(i)
				start = i + 1
			}
		}
		check(len(msgs))
	case "gemini":
		// Gemini 3 through the compatible endpoint: every function call of
		// the current turn (after the last user message) must come back
		// with its thought signature (ai.google.dev/gemini-api/docs/
		// thought-signatures; the wording is the 400 users report on
		// discuss.ai.google.dev "OpenAI API compatibility broken due to
		// thought_signature").
		start := 0
		for i, m := range msgs {
			if m.Role == "user" {
				start = i + 1
			}
		}
		for i := start; i < len(msgs); i++ {
			for j, tc := range msgs[i].ToolCalls {
				var x struct {
					Google struct {
						ThoughtSignature string `json:"thought_signature"`
					} `json:"google"`
				}
				if json.Unmarshal([]byte(tc.Extra), &x) != nil || x.Google.ThoughtSignature == "" {
					out = append(out, fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d.", tc.Name, j+1))
				}
			}
		}
	case "groq":
		// Groq's wording (agentjido/req_llm#772): a replayed
		// reasoning_content is a 400, not ignored.
		for i, m := range msgs {
			if m.Role == "assistant" && m.ReasoningContent != nil {
				out = append(out, fmt.Sprintf("'messages.%d' : for 'role:assistant' the following must be satisfied[('messages.%d' : property 'reasoning_content' is unsupported)]", i, i))
			}
		}
	case "openai":
		for i, m := range msgs {
			if m.ReasoningContent != nil {
				out = append(out, fmt.Sprintf("Unrecognized request argument: messages[%d].reasoning_content", i))
			}
		}
	}
	return out
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
