package compact

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kept is what a compaction re-sends word for word after the summary, so
// the agent still knows what the user asked, what is done and what the
// user decided however often the conversation is compacted: the model's
// summary may lose or blur them, this block never does. It is rebuilt
// from the session (the user's messages, the todo plan, the answered
// confirmations) at every compaction, never from an earlier summary.
type Kept struct {
	// FirstRequest is the user's first request of the session, when it
	// differs from Request (a follow-up turn changed the task).
	FirstRequest string
	// Request is the user's latest request: the task being worked on.
	Request string
	// Goal and Todos are the session's todo plan, with each item's state.
	Goal  string
	Todos []Todo
	// Decisions are what the user decided, oldest first; Omitted counts
	// older ones left out to bound the block.
	Decisions []Decision
	Omitted   int
}

// Todo is one item of the plan as kept.
type Todo struct {
	Title  string
	Status string // pending, running, done, failed, skipped, interrupted
}

// Decision is one answer the user gave: an approval or rejection of an
// edit, command, call or plan (with the reason they typed), or a reply to
// ask_human.
type Decision struct {
	// Kind is what was decided on: edit, shell, tool, fetch, browser,
	// plan, question.
	Kind string
	// Subject names it: the path, the command, the tool, the URL, the
	// question.
	Subject string
	// Accepted is the verdict (for a question: answered, not declined).
	Accepted bool
	// Reason is what the user wrote with the verdict; Answer is a reply
	// to a question; Changed says the user edited what was proposed
	// before approving it.
	Reason  string
	Answer  string
	Changed bool
}

// Bounds of the kept block: it must stay small next to what it survives.
const (
	// MaxRequestChars of a request are kept: its beginning and its end,
	// each half, with a note of what was left out between them.
	MaxRequestChars = 6000
	// MaxDecisions are listed, the newest; older ones are counted.
	MaxDecisions = 40
	maxSubject   = 300
	maxReason    = 800
	maxTodoTitle = 200
)

// KeptCounts says what a compaction kept, for the notice a person reads.
type KeptCounts struct {
	Request   bool `json:"request,omitempty"`
	Todos     int  `json:"todos,omitempty"`
	TodosDone int  `json:"todosDone,omitempty"`
	Decisions int  `json:"decisions,omitempty"`
}

// Counts summarises k for the notice.
func (k Kept) Counts() KeptCounts {
	c := KeptCounts{Request: k.Request != "" || k.FirstRequest != "", Todos: len(k.Todos), Decisions: len(k.Decisions) + k.Omitted}
	for _, t := range k.Todos {
		if t.Status == "done" {
			c.TodosDone++
		}
	}
	return c
}

// Empty reports whether nothing is kept.
func (k Kept) Empty() bool {
	return k.Request == "" && k.FirstRequest == "" && len(k.Todos) == 0 && len(k.Decisions) == 0 && k.Omitted == 0
}

// KeptTag is the element the kept block is written in.
const KeptTag = "kept_verbatim"

// Render is the block the model reads after the summary (English: the
// model reads English). Its text depends only on k, so re-sending the
// same session state gives the same bytes.
func (k Kept) Render() string {
	if k.Empty() {
		return ""
	}
	var b strings.Builder
	b.WriteString("<" + KeptTag + ">\n")
	b.WriteString("Kept word for word outside the summary; where the summary differs, this is right.\n")
	if k.FirstRequest != "" {
		b.WriteString("\nThe user's first request in this session:\n<original_request>\n")
		b.WriteString(ClipMiddle(k.FirstRequest, MaxRequestChars))
		b.WriteString("\n</original_request>\n")
	}
	if k.Request != "" {
		b.WriteString("\nThe user's current request:\n<current_request>\n")
		b.WriteString(ClipMiddle(k.Request, MaxRequestChars))
		b.WriteString("\n</current_request>\n")
	}
	if len(k.Todos) > 0 {
		b.WriteString("\nThe todo list now:\n<todo_list>\n")
		if k.Goal != "" {
			fmt.Fprintf(&b, "Goal: %s\n", oneLine(k.Goal, MaxRequestChars/4))
		}
		for i, t := range k.Todos {
			fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, t.Status, oneLine(t.Title, maxTodoTitle))
		}
		b.WriteString("</todo_list>\n")
	}
	if len(k.Decisions) > 0 || k.Omitted > 0 {
		b.WriteString("\nWhat the user decided, oldest first:\n<user_decisions>\n")
		if k.Omitted > 0 {
			fmt.Fprintf(&b, "- (%d earlier decisions are not listed)\n", k.Omitted)
		}
		for _, d := range k.Decisions {
			b.WriteString("- " + d.line() + "\n")
		}
		b.WriteString("</user_decisions>\n")
	}
	b.WriteString("</" + KeptTag + ">")
	return b.String()
}

// line words one decision.
func (d Decision) line() string {
	subject := oneLine(d.Subject, maxSubject)
	var s string
	switch {
	case d.Kind == "question" && d.Accepted:
		s = fmt.Sprintf("Asked %q, the user answered: %q", subject, oneLine(d.Answer, maxReason))
	case d.Kind == "question":
		s = fmt.Sprintf("Asked %q, the user declined to answer", subject)
	case d.Kind == "plan" && d.Accepted:
		s = "Approved the todo plan"
	case d.Kind == "plan" && d.Answer != "":
		s = fmt.Sprintf("Did not accept the todo plan and replied: %q", oneLine(d.Answer, maxReason))
	case d.Kind == "plan":
		s = "Rejected the todo plan"
	default:
		verb := "Rejected"
		if d.Accepted {
			verb = "Approved"
			if d.Changed {
				verb = "Approved after changing"
			}
		}
		s = fmt.Sprintf("%s %s %s", verb, kindNoun(d.Kind), subject)
	}
	if d.Reason != "" {
		s += fmt.Sprintf(" (reason: %q)", oneLine(d.Reason, maxReason))
	}
	return s
}

func kindNoun(kind string) string {
	switch kind {
	case "edit":
		return "the edit of"
	case "shell":
		return "the command"
	case "tool":
		return "the tool call"
	case "fetch":
		return "fetching"
	case "browser":
		return "the browser run on"
	}
	return kind
}

// ClipMiddle keeps s when it has at most max characters, else its first
// and last max/2 with a note naming how much was left out between them.
// It cuts on rune boundaries.
func ClipMiddle(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	half := max / 2
	return string(r[:half]) + fmt.Sprintf("\n[… %d characters left out …]\n", len(r)-2*half) + string(r[len(r)-half:])
}

// oneLine folds whitespace to single spaces and clips to max runes, so one
// decision or item stays one line.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return s
}

// StripContext removes the per-message <context> block the engine puts
// before the user's words, for a request kept from the model track when
// the person's own text is not available.
func StripContext(content string) string {
	const open, close = "<context>\n", "</context>\n\n"
	if !strings.HasPrefix(content, open) {
		return content
	}
	if i := strings.Index(content, close); i >= 0 {
		return content[i+len(close):]
	}
	return content
}
