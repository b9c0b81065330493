package agent

import "strings"

// callHider keeps the text protocol's <tool_call> blocks out of the text a
// person reads: the model writes them into its answer, but they are the
// call itself, which the chat shows as a tool card. Streamed text arrives
// in arbitrary pieces, so a piece that may start a tag is held back until
// the next one decides.
type callHider struct {
	buf    string
	inside bool
}

// push takes one streamed piece and returns what can be shown now.
func (h *callHider) push(s string) string {
	h.buf += s
	var out strings.Builder
	for {
		if h.inside {
			j := strings.Index(h.buf, closeTag)
			if j < 0 {
				// Keep only what may begin the closing tag.
				h.buf = h.buf[len(h.buf)-partialTag(h.buf, closeTag):]
				return out.String()
			}
			h.buf, h.inside = h.buf[j+len(closeTag):], false
			continue
		}
		i := strings.Index(h.buf, openTag)
		if i < 0 {
			keep := partialTag(h.buf, openTag)
			out.WriteString(h.buf[:len(h.buf)-keep])
			h.buf = h.buf[len(h.buf)-keep:]
			return out.String()
		}
		out.WriteString(h.buf[:i])
		h.buf, h.inside = h.buf[i+len(openTag):], true
	}
}

// flush ends the stream: text held back that never became a tag is shown;
// an unclosed block stays hidden (the loop asks the model to correct it).
func (h *callHider) flush() string {
	out := ""
	if !h.inside {
		out = h.buf
	}
	h.buf, h.inside = "", false
	return out
}

// partialTag is the length of the longest end of s that begins tag.
func partialTag(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// withoutTextCalls is content with its <tool_call> blocks removed, for the
// run's final text.
func withoutTextCalls(content string) string {
	var h callHider
	return strings.TrimSpace(h.push(content) + h.flush())
}
