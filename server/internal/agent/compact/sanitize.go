package compact

import (
	"fmt"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// interruptedResult answers a tool call that never ran (crash or cancel).
const interruptedResult = "interrupted: not executed"

// Sanitize repairs incomplete tool-call sequences so a provider never
// answers 400: every assistant tool call gets exactly one result right
// after its message (a synthetic "interrupted" one when missing), and tool
// results that answer no call are dropped. It reports whether it changed
// anything.
func Sanitize(msgs []llm.Message) ([]llm.Message, bool) {
	out := make([]llm.Message, 0, len(msgs))
	changed := false
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			// A tool message not consumed below answers nothing.
			changed = true
			continue
		}
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			if want[msgs[j].ToolCallID] {
				out = append(out, msgs[j])
				delete(want, msgs[j].ToolCallID)
			} else {
				changed = true
			}
		}
		for _, c := range m.ToolCalls {
			if want[c.ID] {
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: interruptedResult})
				changed = true
			}
		}
		i = j - 1
	}
	return out, changed
}

// ValidateToolPairs checks the invariant a request must satisfy: every
// tool call has exactly one result, and every result answers a call.
func ValidateToolPairs(msgs []llm.Message) error {
	open := map[string]bool{}
	for i, m := range msgs {
		switch m.Role {
		case llm.RoleAssistant:
			if len(open) > 0 {
				return fmt.Errorf("message %d: tool calls %v have no result", i, keys(open))
			}
			for _, c := range m.ToolCalls {
				if open[c.ID] {
					return fmt.Errorf("message %d: duplicate tool call id %s", i, c.ID)
				}
				open[c.ID] = true
			}
		case llm.RoleTool:
			if !open[m.ToolCallID] {
				return fmt.Errorf("message %d: tool result %s answers no open call", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		default:
			if len(open) > 0 {
				return fmt.Errorf("message %d: tool calls %v have no result", i, keys(open))
			}
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("tool calls %v have no result", keys(open))
	}
	return nil
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
