package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// The scripted model's JSON script format, restated here rather than
// imported: server/internal is not importable from e2e/, and writing the JSON
// the way any script author would keeps the suite honest about the format.
type modelRules struct {
	Rules   []modelRule `json:"rules"`
	Default *modelReply `json:"default,omitempty"`
}

type modelRule struct {
	Match string     `json:"match"`
	On    string     `json:"on,omitempty"`
	Reply modelReply `json:"reply"`
}

type modelReply struct {
	Text         string          `json:"text,omitempty"`
	Reasoning    string          `json:"reasoning,omitempty"`
	ToolCalls    []modelToolCall `json:"tool_calls,omitempty"`
	ChunkSize    int             `json:"chunk_size,omitempty"`
	ChunkDelayMS int64           `json:"chunk_delay_ms,omitempty"`
	// Faults[i] spoils attempt i+1 of this reply (llm/scripted.Fault).
	Faults []modelFault `json:"faults,omitempty"`
	// Usage, when set, is reported instead of the scripted model's estimate
	// (llm/scripted.Usage): cache_fields "none" reports no cached tokens.
	Usage *modelUsage `json:"usage,omitempty"`
}

type modelUsage struct {
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
	CachedTokens     int64  `json:"cached_tokens"`
	CacheFields      string `json:"cache_fields,omitempty"`
}

type modelFault struct {
	Kind   string `json:"kind"`
	Status int    `json:"status,omitempty"`
	Body   string `json:"body,omitempty"`
}

type modelToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// recordedRequest is the part of GET /_requests the scenarios look at.
type recordedRequest struct {
	Seq      int    `json:"seq"`
	Path     string `json:"path"`
	HasAuth  bool   `json:"has_auth"`
	Model    string `json:"model"`
	Outcome  string `json:"outcome"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// lastUserText is the text of the request's last user message.
func (r recordedRequest) lastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

func (m *scriptedModel) recorded(t *testing.T) []recordedRequest {
	t.Helper()
	var reqs []recordedRequest
	raw := m.Requests(t)
	if err := json.Unmarshal(raw, &reqs); err != nil {
		t.Fatalf("decode /_requests: %v (%s)", err, truncate(string(raw), 300))
	}
	return reqs
}

// chatRequests keeps the chat-completion requests, dropping model listings.
func chatRequests(reqs []recordedRequest) []recordedRequest {
	var out []recordedRequest
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
