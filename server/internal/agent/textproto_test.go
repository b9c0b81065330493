package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func TestParseTextToolCalls(t *testing.T) {
	for _, tt := range []struct {
		name, in  string
		calls     int
		wantError string
	}{
		{"none", "just prose", 0, ""},
		{"one", `Let me read. <tool_call>{"tool": "read_file", "arguments": {"filePath": "a.go"}}</tool_call>`, 1, ""},
		{"two", `<tool_call>{"tool":"a","arguments":{}}</tool_call> and <tool_call>{"tool":"b"}</tool_call>`, 2, ""},
		{"unclosed", `<tool_call>{"tool":"a","arguments":{}}`, 0, "unclosed tag"},
		{"nested open", `<tool_call>{"tool":"a"<tool_call>{"tool":"b"}</tool_call>`, 0, "unclosed tag"},
		{"stray close", `text </tool_call>`, 0, "without a matching"},
		{"json error", `<tool_call>{"tool": "a", "arguments": {</tool_call>`, 0, "JSON error"},
		{"trailing text", `<tool_call>{"tool":"a"} extra</tool_call>`, 0, "JSON error"},
		{"missing tool", `<tool_call>{"arguments":{}}</tool_call>`, 0, `missing "tool"`},
		{"array args", `<tool_call>{"tool":"a","arguments":[1]}</tool_call>`, 0, "must be an object, got an array"},
		{"string args", `<tool_call>{"tool":"a","arguments":"x"}</tool_call>`, 0, "must be an object, got a string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTextToolCalls(tt.in)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("error %v, want %q", err, tt.wantError)
				}
				return
			}
			if err != nil || len(got.Calls) != tt.calls {
				t.Fatalf("calls %d err %v", len(got.Calls), err)
			}
		})
	}
}

// FuzzParseTextToolCalls: the parser never panics, and every call it
// returns has a name and object arguments.
func FuzzParseTextToolCalls(f *testing.F) {
	for _, s := range []string{
		`<tool_call>{"tool":"read_file","arguments":{"filePath":"x"}}</tool_call>`,
		`<tool_call>`, `</tool_call>`, `<tool_call>{}</tool_call>`, "plain",
		`<tool_call>{"tool":"a","arguments":null}</tool_call><tool_call>{"tool":"b","arguments":{"k":[1,2]}}</tool_call>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTextToolCalls(s)
		if err != nil {
			return
		}
		for _, c := range got.Calls {
			if strings.TrimSpace(c.Name) == "" {
				t.Fatalf("empty name from %q", s)
			}
			var obj map[string]any
			if json.Unmarshal([]byte(c.Arguments), &obj) != nil {
				t.Fatalf("arguments not an object: %q from %q", c.Arguments, s)
			}
		}
	})
}

func TestRawContentFallbackFillsInOrder(t *testing.T) {
	content := "Here:\n<edit-content>\nfirst\nblock\n</edit-content>\n<shell-content>go test ./...</shell-content>\n<edit-content>second</edit-content>"
	calls := []llmCall{
		{"edit", `{"filePath":"a","startLine":1,"endLine":1,"newContent":""}`},
		{"run_shell_command", `{"command":""}`},
		{"write_file", `{"filePath":"b"}`},
		{"edit", `{"filePath":"c","startLine":1,"endLine":1,"newContent":"kept"}`},
	}
	tc := toCalls(calls)
	fillRawContent(content, tc)
	want := []string{"first\nblock\n", "go test ./...", "second", "kept"}
	fields := []string{"newContent", "command", "content", "newContent"}
	for i, c := range tc {
		var m map[string]any
		json.Unmarshal([]byte(c.Arguments), &m)
		if m[fields[i]] != want[i] {
			t.Fatalf("call %d %s = %q, want %q", i, fields[i], m[fields[i]], want[i])
		}
	}
}

// The text protocol's example calls a tool the request offers, with the
// tool's own first required argument: an example naming a tool that is
// not offered invites a call that is refused.
func TestTextProtocolExampleUsesAnOfferedTool(t *testing.T) {
	var offered []tools.Tool
	for _, tl := range tools.Builtin() {
		if tl.Name() != "read_file" {
			offered = append(offered, tl)
		}
	}
	text := textProtocolInstructions(offered)
	example := textCallExample(offered)
	if !strings.Contains(text, example) {
		t.Fatalf("the instructions lack their example %q", example)
	}
	calls, err := ParseTextToolCalls(example)
	if err != nil || len(calls.Calls) != 1 || calls.Calls[0].Name != offered[0].Name() {
		t.Fatalf("the example %q parses to %+v (%v), want one call of %s", example, calls, err, offered[0].Name())
	}
	var schema struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(offered[0].Schema(), &schema)
	var args map[string]any
	_ = json.Unmarshal([]byte(calls.Calls[0].Arguments), &args)
	if len(schema.Required) > 0 && args[schema.Required[0]] == nil {
		t.Fatalf("the example's arguments %v lack the required %q", args, schema.Required[0])
	}
	if strings.Contains(text, `"tool":"read_file"`) || strings.Contains(text, `"tool": "read_file"`) {
		t.Fatal("the example names read_file, which is not offered")
	}
	if got := textCallExample(nil); !strings.Contains(got, "TOOL_NAME") {
		t.Fatalf("with no tools the example is %q", got)
	}
}
