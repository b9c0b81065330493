package compact

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// ShortenLarge shortens every tool result of msgs from index from on that
// is larger than limit tokens, keeping its head and tail around a note
// that says which lines went and how to read them again. It is what makes
// a track compactable when one result dominates it: the cut can never
// fall inside a tool result, so a result larger than the verbatim window
// would otherwise stay whole. The result has the same length and roles
// as msgs; it reports the tokens saved.
func ShortenLarge(msgs []llm.Message, from, limit int, e *Estimator) ([]llm.Message, int) {
	out := append([]llm.Message(nil), msgs...)
	saved := 0
	for i := max(from, 0); i < len(out); i++ {
		m := out[i]
		if !IsToolResult(m) || strings.Contains(m.Content, TruncatedMarker) {
			continue
		}
		n := e.Text(m.Content)
		if n <= limit {
			continue
		}
		short, ok := shortenWithHint(m.Content, callOf(out[:i], m.ToolCallID), e)
		if !ok {
			continue
		}
		saved += n - e.Text(short)
		out[i].Content = short
	}
	return out, saved
}

// callOf finds the call a native tool result answers (zero when unknown,
// as in the text protocol).
func callOf(before []llm.Message, id string) llm.ToolCall {
	for i := len(before) - 1; i >= 0 && id != ""; i-- {
		for _, c := range before[i].ToolCalls {
			if c.ID == id {
				return c
			}
		}
	}
	return llm.ToolCall{}
}

// shortenWithHint keeps the head and tail of s and names the removed
// lines, with how to get them back: read_file with a line range for a
// file read, else the same call again.
func shortenWithHint(s string, call llm.ToolCall, e *Estimator) (string, bool) {
	if len(s) <= Head+Tail+200 {
		return s, false
	}
	head := cutValid(s[:Head], false)
	tail := cutValid(s[len(s)-Tail:], true)
	removed := s[len(head) : len(s)-len(tail)]
	first := strings.Count(head, "\n") + 1
	last := first + strings.Count(removed, "\n")
	how := "call the tool again if you need them"
	switch {
	case call.Name == "read_file":
		var a struct {
			FilePath string `json:"filePath"`
		}
		_ = json.Unmarshal([]byte(call.Arguments), &a)
		how = fmt.Sprintf("call read_file on %q with startLine/endLine to read that part again", a.FilePath)
	case call.Name != "":
		how = fmt.Sprintf("call %s again (narrowed down) if you need them", call.Name)
	}
	note := fmt.Sprintf("%s%d tokens removed: lines %d-%d of this result; %s …]", TruncatedMarker, e.Text(removed), first, last, how)
	return head + "\n" + note + "\n" + tail, true
}
