package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The text tool-call protocol (codeCLI's) serves endpoints without native
// tool calling: the model writes
//
//	<tool_call>{"tool": NAME, "arguments": {...}}</tool_call>
//
// blocks in its reply. Errors name exactly what is wrong so a corrective
// retry can fix it.

const (
	openTag  = "<tool_call>"
	closeTag = "</tool_call>"
)

// TextCalls is the result of parsing one reply.
type TextCalls struct {
	Calls []llm.ToolCall
}

// TextCallError describes one malformed block.
type TextCallError struct {
	Block  int // 1-based
	Reason string
}

func (e *TextCallError) Error() string {
	return fmt.Sprintf("tool_call block %d: %s", e.Block, e.Reason)
}

// ParseTextToolCalls extracts every block. Unknown tool names are checked by
// the loop (it knows the tool set); this checks structure only.
func ParseTextToolCalls(content string) (TextCalls, error) {
	var out TextCalls
	rest := content
	for n := 1; ; n++ {
		i := strings.Index(rest, openTag)
		if i < 0 {
			if j := strings.Index(rest, closeTag); j >= 0 {
				return out, &TextCallError{n, "found </tool_call> without a matching <tool_call>"}
			}
			return out, nil
		}
		rest = rest[i+len(openTag):]
		j := strings.Index(rest, closeTag)
		if j < 0 {
			return out, &TextCallError{n, "unclosed tag: <tool_call> has no </tool_call>"}
		}
		body := strings.TrimSpace(rest[:j])
		rest = rest[j+len(closeTag):]
		if nested := strings.Index(body, openTag); nested >= 0 {
			return out, &TextCallError{n, "unclosed tag: a <tool_call> starts before the previous one was closed"}
		}
		var raw struct {
			Tool      *string         `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
		}
		dec := json.NewDecoder(strings.NewReader(body))
		if err := dec.Decode(&raw); err != nil {
			return out, &TextCallError{n, "JSON error: " + err.Error()}
		}
		if dec.More() {
			return out, &TextCallError{n, "JSON error: unexpected text after the JSON object"}
		}
		if raw.Tool == nil || strings.TrimSpace(*raw.Tool) == "" {
			return out, &TextCallError{n, `missing "tool" name`}
		}
		args := strings.TrimSpace(string(raw.Arguments))
		if args == "" || args == "null" {
			args = "{}"
		}
		if !strings.HasPrefix(args, "{") {
			return out, &TextCallError{n, fmt.Sprintf(`"arguments" must be an object, got %s`, jsonKind(args))}
		}
		out.Calls = append(out.Calls, llm.ToolCall{
			ID:        fmt.Sprintf("text_call_%d", n),
			Name:      strings.TrimSpace(*raw.Tool),
			Arguments: args,
		})
	}
}

func jsonKind(s string) string {
	switch {
	case strings.HasPrefix(s, "["):
		return "an array"
	case strings.HasPrefix(s, `"`):
		return "a string"
	case s == "true" || s == "false":
		return "a boolean"
	default:
		return "a number"
	}
}

func textProtocolInstructions(ts []tools.Tool) string {
	var b strings.Builder
	b.WriteString("# Tool calls\nThis endpoint has no native tool calling. To call a tool, write one block per call:\n")
	b.WriteString(textCallExample(ts) + "\n")
	b.WriteString("The arguments must be a JSON object matching the tool's schema. Results arrive in the next user message as <tool_result> blocks. A reply with no <tool_call> block ends your turn.\n\nTools:\n")
	for _, t := range ts {
		fmt.Fprintf(&b, "## %s\n%s\nSchema: %s\n", t.Name(), strings.TrimSpace(tools.Describe(t, ts)), t.Schema())
	}
	return b.String()
}

// textCallExample shows the block with a tool the request offers (an
// example naming a tool that is not offered only invites a refused call),
// its first required argument filled with a placeholder.
func textCallExample(ts []tools.Tool) string {
	name, args := "TOOL_NAME", map[string]string{"ARGUMENT": "value"}
	if len(ts) > 0 {
		name, args = ts[0].Name(), map[string]string{}
		var schema struct {
			Required []string `json:"required"`
		}
		if json.Unmarshal(ts[0].Schema(), &schema) == nil && len(schema.Required) > 0 {
			args[schema.Required[0]] = "..."
		}
	}
	call, _ := json.Marshal(struct {
		Tool      string            `json:"tool"`
		Arguments map[string]string `json:"arguments"`
	}{name, args})
	return "<tool_call>" + string(call) + "</tool_call>"
}

func formatTextResult(c llm.ToolCall, res tools.Result) string {
	status := "ok"
	if !res.OK {
		status = "error"
	}
	return fmt.Sprintf("<tool_result tool=%q status=%q>\n%s\n</tool_result>", c.Name, status, res.Output)
}

// fillRawContent implements the raw-text fallback: weaker models break JSON
// escaping of multi-line code, so the reply may carry it in
// <edit-content>…</edit-content> or <shell-content>…</shell-content> tags.
// Tags are matched, in order, to the calls whose newContent/content or
// command argument is empty.
func fillRawContent(content string, calls []llm.ToolCall) {
	blocks := extractTagged(content, "edit-content")
	shells := extractTagged(content, "shell-content")
	for i := range calls {
		c := &calls[i]
		var field string
		var queue *[]string
		switch c.Name {
		case "edit":
			field, queue = "newContent", &blocks
		case "write_file":
			field, queue = "content", &blocks
		case "run_shell_command":
			field, queue = "command", &shells
			if len(shells) == 0 {
				queue = &blocks // OpenVibe accepts <edit-content> for shell too
			}
		default:
			continue
		}
		if len(*queue) == 0 {
			continue
		}
		var args map[string]any
		if json.Unmarshal([]byte(c.Arguments), &args) != nil {
			args = map[string]any{}
		}
		if v, ok := args[field].(string); ok && v != "" {
			continue
		}
		args[field] = (*queue)[0]
		*queue = (*queue)[1:]
		if b, err := json.Marshal(args); err == nil {
			c.Arguments = string(b)
		}
	}
}

func extractTagged(s, tag string) []string {
	open, close := "<"+tag+">", "</"+tag+">"
	var out []string
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return out
		}
		s = s[i+len(open):]
		j := strings.Index(s, close)
		if j < 0 {
			return out
		}
		body := s[:j]
		// A newline right after the open tag and before the close tag is
		// layout, not content.
		body = strings.TrimPrefix(body, "\n")
		body = strings.TrimPrefix(body, "\r\n")
		out = append(out, body)
		s = s[j+len(close):]
	}
}
