package compact

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// ToolOutputBudget is how many tokens of the newest tool outputs stay
// untouched by mechanical truncation, as Gemini CLI's 50k budget does.
const ToolOutputBudget = 50000

// Head and Tail are how many bytes of a truncated text are kept.
const (
	Head = 1200
	Tail = 600
)

// TruncatedMarker starts the notice that replaces the middle of a text.
const TruncatedMarker = "[… truncated to save context: "

// Shorten keeps the head and tail of s around a notice naming what was
// removed. Texts already short enough are returned unchanged.
func Shorten(s string, e *Estimator) (string, bool) {
	if len(s) <= Head+Tail+200 {
		return s, false
	}
	head := cutValid(s[:Head], false)
	tail := cutValid(s[len(s)-Tail:], true)
	removed := e.Text(s[len(head) : len(s)-len(tail)])
	return fmt.Sprintf("%s\n%s%d tokens removed; rerun the tool if you need them …]\n%s", head, TruncatedMarker, removed, tail), true
}

// cutValid trims a partial rune at the cut edge.
func cutValid(s string, fromStart bool) string {
	if fromStart {
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		return s
	}
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// TruncateToolOutputs walks from the newest message back; once the tool
// outputs seen exceed budget tokens, each older large tool output is
// shortened. The result has the same length and roles as msgs, so tool
// pairing is untouched. It reports the tokens saved.
func TruncateToolOutputs(msgs []llm.Message, budget int, e *Estimator) ([]llm.Message, int) {
	out := append([]llm.Message(nil), msgs...)
	seen, saved := 0, 0
	for i := len(out) - 1; i >= 0; i-- {
		if !IsToolResult(out[i]) {
			continue
		}
		n := e.Text(out[i].Content)
		seen += n
		if seen <= budget {
			continue
		}
		if short, ok := shortenResult(out[i].Content, e); ok {
			saved += n - e.Text(short)
			out[i].Content = short
		}
	}
	return out, saved
}

// shortenResult keeps a text-protocol result's wrapping tags intact.
func shortenResult(s string, e *Estimator) (string, bool) {
	if strings.Contains(s, TruncatedMarker) {
		return s, false
	}
	return Shorten(s, e)
}

// ErrCannotFit says even the most aggressive cut leaves a request too big.
var ErrCannotFit = fmt.Errorf("the messages to summarise cannot be cut down to fit the context window")

// Fit cuts msgs down mechanically until Request(...) of them plus overhead
// tokens fits budget: first tool outputs are shortened oldest first, then
// any long message, then whole leading exchanges are dropped. Tool pairing
// is preserved throughout. It reports whether anything was cut.
func Fit(msgs []llm.Message, overhead, budget int, e *Estimator) ([]llm.Message, bool, error) {
	total := overhead + e.Messages(msgs)
	if total <= budget {
		return msgs, false, nil
	}
	out := append([]llm.Message(nil), msgs...)
	shrink := func(pick func(llm.Message) bool) bool {
		for i := range out {
			if total <= budget {
				return true
			}
			if !pick(out[i]) {
				continue
			}
			short, ok := shortenResult(out[i].Content, e)
			if !ok {
				continue
			}
			total -= e.Text(out[i].Content) - e.Text(short)
			out[i].Content = short
		}
		return total <= budget
	}
	if shrink(IsToolResult) || shrink(func(llm.Message) bool { return true }) {
		return out, true, nil
	}
	for len(out) > 1 && total > budget {
		// Drop the oldest exchange: up to the next cut point.
		j := 1
		for j < len(out) && !boundary(out, j) {
			j++
		}
		total -= e.Messages(out[:j])
		out = out[j:]
	}
	if total > budget || len(out) == 0 {
		return nil, true, ErrCannotFit
	}
	return out, true, nil
}
