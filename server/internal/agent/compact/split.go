package compact

import (
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// IsToolResult reports whether m answers a tool call: a native tool message,
// or a text-protocol <tool_result> user message.
func IsToolResult(m llm.Message) bool {
	return m.Role == llm.RoleTool || (m.Role == llm.RoleUser && strings.HasPrefix(m.Content, "<tool_result "))
}

// isRequest reports whether m is something the user asked (not a tool
// result, not a bare context note such as a restore notice).
func isRequest(m llm.Message) bool {
	if m.Role != llm.RoleUser || IsToolResult(m) {
		return false
	}
	return !strings.HasSuffix(strings.TrimSpace(m.Content), "</context>")
}

// IsRequest reports whether m is something the user asked: a user
// message that is neither a tool result nor a bare context note.
func IsRequest(m llm.Message) bool { return isRequest(m) }

// CurrentRequest is the index of the user's current request, or -1.
func CurrentRequest(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if isRequest(msgs[i]) {
			return i
		}
	}
	return -1
}

// boundary reports whether msgs may be cut before index i: the kept part
// must not start with a tool result, and every tool call before i must be
// answered before i (results follow their call directly, so a call at i-1
// or earlier with its result at i or later would be split).
func boundary(msgs []llm.Message, i int) bool {
	if i <= 0 || i >= len(msgs) {
		return false
	}
	if IsToolResult(msgs[i]) {
		return false
	}
	// Find the last assistant message before i and check its calls are all
	// answered inside [it, i).
	for j := i - 1; j >= 0; j-- {
		m := msgs[j]
		if m.Role != llm.RoleAssistant {
			if !IsToolResult(m) {
				return true
			}
			continue
		}
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		for k := j + 1; k < i; k++ {
			delete(want, msgs[k].ToolCallID)
		}
		return len(want) == 0
	}
	return true
}

// Split chooses how many of the oldest messages to summarise. The newest
// messages worth at least keepTokens stay verbatim; the cut never separates
// a tool call from its result; a cut at a user request is preferred when it
// keeps no more than half a window extra. It returns 0 when nothing can be
// summarised. limit caps the cut (e.g. the start of a side conversation).
func Split(msgs []llm.Message, keepTokens, limit int, count func(llm.Message) int) int {
	if limit > len(msgs)-1 {
		limit = len(msgs) - 1
	}
	kept := 0
	cut := 0
	for i := len(msgs) - 1; i > 0; i-- {
		kept += count(msgs[i])
		if kept >= keepTokens && i <= limit && boundary(msgs, i) {
			cut = i
			break
		}
	}
	if cut == 0 {
		return 0
	}
	// Prefer starting the kept part at a user request.
	extra := 0
	for i := cut; i > 0; i-- {
		if isRequest(msgs[i]) && boundary(msgs, i) {
			return i
		}
		extra += count(msgs[i-1])
		if extra > keepTokens/2 {
			break
		}
	}
	return cut
}
