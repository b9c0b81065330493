package llm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// sdkBody is the request body as openai-go encodes the whole request, the
// way the client built it before bodyCache: the reference requestBody
// must equal as JSON.
func sdkBody(t *testing.T, c *OpenAIClient, req Request) any {
	t.Helper()
	p, err := c.buildParams(req)
	if err != nil {
		t.Fatal(err)
	}
	var keep []bool
	if c.replayRule() == ReplayToolTurns {
		keep = reasoningTurns(req.Messages)
	}
	for i, m := range req.Messages {
		u, err := convertMessage(i, m, keep != nil && keep[i], c.replayField(), c.profile.Wire.ToolCallExtra)
		if err != nil {
			t.Fatal(err)
		}
		p.Messages = append(p.Messages, u)
	}
	for _, td := range req.Tools {
		schema := map[string]any{}
		if err := json.Unmarshal(td.Parameters, &schema); err != nil {
			t.Fatal(err)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: td.Name, Description: openai.String(td.Description), Parameters: schema}))
	}
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	v["stream"] = true
	return v
}

func decoded(t *testing.T, b []byte) any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, b)
	}
	return v
}

func bodyClient(t *testing.T, p Profile) *OpenAIClient {
	t.Helper()
	p.BaseURL, p.Model = "https://api.deepseek.com", "deepseek-chat"
	c, err := New(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var readTool = ToolDef{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"filePath":{"type":"string"}},"required":["filePath"]}`)}

func round(i int) []Message {
	id := "call_" + string(rune('a'+i))
	return []Message{
		{Role: RoleAssistant, ReasoningContent: "think " + id, ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: `{"filePath":"a<b>&.go"}`, Extra: `{"google":{"thought_signature":"sig"}}`}}},
		{Role: RoleTool, ToolCallID: id, Content: "1\tpackage a // " + id},
	}
}

// The cached body is the SDK's body, field for field, whatever the
// provider's quirks, as the conversation grows by tool rounds.
func TestRequestBodyEqualsTheSDKEncoding(t *testing.T) {
	temp := 0.5
	for _, p := range []Profile{
		{},
		{Wire: Wire{ToolCallExtra: true, ReasoningReplay: ReplayToolTurns, ReasoningField: "reasoning"}, Temperature: &temp, MaxOutputTokens: 100, ReasoningEffort: "high"},
	} {
		c := bodyClient(t, p)
		msgs := []Message{{Role: RoleSystem, Content: "You are GoVibe."}, {Role: RoleUser, Name: "ann", Content: "read it"}}
		for i := 0; i < 4; i++ {
			req := Request{Messages: msgs, Tools: []ToolDef{readTool}}
			body, err := c.requestBody(req)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := decoded(t, body), sdkBody(t, c, req); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d:\n got %v\nwant %v", i, got, want)
			}
			msgs = append(msgs, round(i)...)
		}
		body, _ := c.requestBody(Request{Messages: msgs})
		if strings.Contains(string(body), `"tools"`) {
			t.Fatalf("a request without tools sent a tools field: %s", body)
		}
	}
}

// A tool round encodes only its new messages; a message or tool that
// changes in any field is encoded afresh, never served stale.
func TestRequestBodyCacheEncodesOnlyWhatChanged(t *testing.T) {
	c := bodyClient(t, Profile{Wire: Wire{ReasoningReplay: ReplayToolTurns}})
	encoded := func(req Request) (string, int) {
		t.Helper()
		before := c.body.encoded
		b, err := c.requestBody(req)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := decoded(t, b), sdkBody(t, c, req); !reflect.DeepEqual(got, want) {
			t.Fatalf("body\n got %v\nwant %v", got, want)
		}
		return string(b), c.body.encoded - before
	}
	msgs := []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: "go"}, {Role: RoleAssistant, Content: "looking", ReasoningContent: "hmm"}}
	tools := []ToolDef{readTool}
	if _, n := encoded(Request{Messages: msgs, Tools: tools}); n != 4 {
		t.Fatalf("first request encoded %d items, want 3 messages and the tools", n)
	}
	// The assistant message's turn now has a tool call: its reasoning is
	// replayed, so it is a different message on the wire.
	msgs = append(msgs, round(0)...)
	body, n := encoded(Request{Messages: msgs, Tools: tools})
	if n != 3 || !strings.Contains(body, `"reasoning_content":"hmm"`) {
		t.Fatalf("a tool round encoded %d items (want the 2 new messages and the re-marked one): %s", n, body)
	}
	msgs = append(msgs, round(1)...)
	if _, n := encoded(Request{Messages: msgs, Tools: tools}); n != 2 {
		t.Fatalf("a tool round encoded %d items, want its 2 messages", n)
	}
	// The same content in a fresh slice is still a hit.
	again := append([]Message(nil), msgs...)
	if _, n := encoded(Request{Messages: again, Tools: []ToolDef{readTool}}); n != 0 {
		t.Fatalf("an unchanged request encoded %d items", n)
	}
	// Edited in place: content, a tool call's arguments, a tool's schema
	// and description.
	again[1].Content = "go on"
	again[3].ToolCalls = []ToolCall{{ID: "call_a", Name: "read_file", Arguments: `{"filePath":"b.go"}`}}
	if body, n := encoded(Request{Messages: again, Tools: tools}); n != 2 || !strings.Contains(body, "go on") || !strings.Contains(body, `b.go`) {
		t.Fatalf("edited messages: %d encoded: %s", n, body)
	}
	changed := readTool
	changed.Parameters = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	if body, n := encoded(Request{Messages: again, Tools: []ToolDef{changed}}); n != 1 || !strings.Contains(body, `"path"`) {
		t.Fatalf("a changed schema: %d encoded: %s", n, body)
	}
	changed.Description = "Read one file."
	if body, n := encoded(Request{Messages: again, Tools: []ToolDef{changed}}); n != 1 || !strings.Contains(body, "Read one file.") {
		t.Fatalf("a changed description: %d encoded: %s", n, body)
	}
	// The cache holds the latest request's messages only.
	if _, n := encoded(Request{Messages: again[:2], Tools: []ToolDef{changed}}); n != 0 || len(c.body.msgs) != 2 {
		t.Fatalf("a shorter request: %d encoded, %d kept", n, len(c.body.msgs))
	}
}

// Bad input still fails before anything is sent, cached or not.
func TestRequestBodyRejectsBadMessagesAndSchemas(t *testing.T) {
	c := bodyClient(t, Profile{})
	ok := []Message{{Role: RoleUser, Content: "hi"}}
	if _, err := c.requestBody(Request{Messages: ok}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.requestBody(Request{Messages: append(ok, Message{Role: RoleTool, Content: "x"})}); err == nil || !strings.Contains(err.Error(), "message 1: tool result without tool_call_id") {
		t.Fatalf("tool message without id: %v", err)
	}
	if _, err := c.requestBody(Request{Messages: append(ok, Message{Role: "robot"})}); err == nil || !strings.Contains(err.Error(), `unknown role "robot"`) {
		t.Fatalf("unknown role: %v", err)
	}
	bad := ToolDef{Name: "x", Parameters: json.RawMessage(`{`)}
	if _, err := c.requestBody(Request{Messages: ok, Tools: []ToolDef{bad}}); err == nil || !strings.Contains(err.Error(), `tool "x" has an invalid parameters schema`) {
		t.Fatalf("bad schema: %v", err)
	}
}
