package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// bodyCache keeps the encoded form of what a request repeats from the
// one before: every earlier message of the conversation and the tool
// list. A tool round resends the whole history with one or two messages
// more, and encoding it again through openai-go's reflection was about a
// fifth of the round's CPU, growing with the session.
//
// Entries are keyed by content, never by position or identity: a message
// or tool list that differs in any encoded field is a miss and is encoded
// afresh. The message map holds only the messages of the latest request
// (each request builds the next map from what it used), so it is bounded
// by one request body and forgets what compaction dropped.
//
// Concurrency: mu guards every field; a request holds it while it
// encodes, so concurrent requests on one client encode one at a time.
type bodyCache struct {
	mu        sync.Mutex
	msgs      map[msgKey][]byte
	tools     []ToolDef
	toolsJSON []byte
	// encoded counts messages and tool lists encoded afresh (tests).
	encoded int
}

// msgKey is everything convertMessage reads of a message. The client's
// replay rule, replay field and tool-call extras are fixed for its life.
type msgKey struct {
	role                      Role
	content, name, toolCallID string
	calls                     string // the tool calls, length-prefixed
	reasoning                 string // the replayed reasoning, when replayed
	replayed                  bool
}

func keyOf(m Message, replayed bool) msgKey {
	k := msgKey{role: m.Role, content: m.Content, name: m.Name, toolCallID: m.ToolCallID, replayed: replayed}
	if replayed {
		k.reasoning = m.ReasoningContent
	}
	if len(m.ToolCalls) > 0 {
		var b strings.Builder
		for _, tc := range m.ToolCalls {
			for _, f := range []string{tc.ID, tc.Name, tc.Arguments, tc.Extra} {
				b.WriteString(strconv.Itoa(len(f)))
				b.WriteByte(':')
				b.WriteString(f)
			}
		}
		k.calls = b.String()
	}
	return k
}

// requestBody is the JSON body of req: its messages and tools (through
// the cache), "stream": true, then the profile's parameters as openai-go
// encodes them.
func (c *OpenAIClient) requestBody(req Request) ([]byte, error) {
	head, err := c.buildParams(req)
	if err != nil {
		return nil, err
	}
	rest, err := head.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if len(rest) < 2 || rest[0] != '{' {
		return nil, fmt.Errorf("request parameters encoded as %q, not an object", rest)
	}
	c.body.mu.Lock()
	defer c.body.mu.Unlock()
	msgs, err := c.encodeMessages(req.Messages)
	if err != nil {
		return nil, err
	}
	tools, err := c.encodeTools(req.Tools)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(msgs) + len(tools) + len(rest) + 40)
	b.WriteString(`{"messages":`)
	b.Write(msgs)
	if tools != nil {
		b.WriteString(`,"tools":`)
		b.Write(tools)
	}
	b.WriteString(`,"stream":true`)
	if len(rest) > 2 { // rest is {} or {"member":…}
		b.WriteByte(',')
	}
	b.Write(rest[1:])
	return b.Bytes(), nil
}

// encodeMessages is the JSON array of msgs, each message encoded once
// for as long as consecutive requests carry it. Caller holds c.body.mu.
func (c *OpenAIClient) encodeMessages(msgs []Message) ([]byte, error) {
	var keep []bool
	if c.replayRule() == ReplayToolTurns {
		keep = reasoningTurns(msgs)
	}
	field, extra := c.replayField(), c.profile.Wire.ToolCallExtra
	next := make(map[msgKey][]byte, len(msgs))
	parts := make([][]byte, len(msgs))
	size := 2
	for i, m := range msgs {
		k := keyOf(m, keep != nil && keep[i])
		b, ok := next[k]
		if !ok {
			b, ok = c.body.msgs[k]
		}
		if !ok {
			u, err := convertMessage(i, m, k.replayed, field, extra)
			if err != nil {
				return nil, err
			}
			if b, err = u.MarshalJSON(); err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
			c.body.encoded++
		}
		next[k] = b
		parts[i] = b
		size += len(b) + 1
	}
	out := make([]byte, 0, size)
	out = append(out, '[')
	for i, b := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	c.body.msgs = next
	return append(out, ']'), nil
}

// encodeTools is the JSON array of tools, or nil when there are none;
// the same list as the last request's reuses its encoding. Caller holds
// c.body.mu.
func (c *OpenAIClient) encodeTools(tools []ToolDef) ([]byte, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	if sameTools(tools, c.body.tools) {
		return c.body.toolsJSON, nil
	}
	out := []byte{'['}
	for i, t := range tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		schema := map[string]any{}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %q has an invalid parameters schema: %w", t.Name, err)
			}
		} else {
			schema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		fn.Parameters = schema
		u := openai.ChatCompletionFunctionTool(fn)
		b, err := u.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	out = append(out, ']')
	c.body.encoded++
	// A copy: the caller may change its slice's tools after the request.
	c.body.tools = cloneTools(tools)
	c.body.toolsJSON = out
	return out, nil
}

func sameTools(a, b []ToolDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}

func cloneTools(ts []ToolDef) []ToolDef {
	out := make([]ToolDef, len(ts))
	for i, t := range ts {
		t.Parameters = bytes.Clone(t.Parameters)
		out[i] = t
	}
	return out
}
