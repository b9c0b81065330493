package compact

import (
	"strings"
	"testing"
)

// The kept block carries the requests, the todo list with states and every
// decision word for word, after the snapshot.
func TestKeptBlockAfterTheSnapshot(t *testing.T) {
	k := Kept{
		FirstRequest: "Port the parser to Go.",
		Request:      "Also keep the old CLI flags.",
		Goal:         "Port the parser",
		Todos:        []Todo{{"Read the C code", "done"}, {"Write the lexer", "running"}, {"Tests", "pending"}},
		Decisions: []Decision{
			{Kind: "edit", Subject: "lexer.go", Accepted: true},
			{Kind: "shell", Subject: "rm -rf build", Accepted: false, Reason: "keep the build folder"},
			{Kind: "question", Subject: "Which Go version?", Accepted: true, Answer: "1.22"},
			{Kind: "shell", Subject: "go test ./...", Accepted: true, Changed: true, Reason: "only the parser"},
		},
	}
	m := SummaryMessage("<state_snapshot>s</state_snapshot>", k)
	c := m.Content
	snap := strings.Index(c, "<state_snapshot>")
	kept := strings.Index(c, "<"+KeptTag+">")
	if !strings.HasPrefix(c, SummaryPrefix) || snap < 0 || kept < snap {
		t.Fatalf("the kept block must follow the snapshot:\n%s", c)
	}
	for _, want := range []string{
		"<original_request>\nPort the parser to Go.\n</original_request>",
		"<current_request>\nAlso keep the old CLI flags.\n</current_request>",
		"Goal: Port the parser", "1. [done] Read the C code", "2. [running] Write the lexer", "3. [pending] Tests",
		"- Approved the edit of lexer.go",
		`- Rejected the command rm -rf build (reason: "keep the build folder")`,
		`- Asked "Which Go version?", the user answered: "1.22"`,
		`- Approved after changing the command go test ./... (reason: "only the parser")`,
	} {
		if !strings.Contains(c, want) {
			t.Errorf("missing %q in:\n%s", want, c)
		}
	}
	if got := k.Counts(); got != (KeptCounts{Request: true, Todos: 3, TodosDone: 1, Decisions: 4}) {
		t.Fatalf("counts %+v", got)
	}
	if SummaryMessage("x", Kept{}).Content != SummaryPrefix+"x" {
		t.Fatal("nothing kept must add nothing")
	}
}

// A long request keeps its beginning and end; the cut is named.
func TestClipMiddleKeepsBothEnds(t *testing.T) {
	long := "BEGIN " + strings.Repeat("é", MaxRequestChars) + " END"
	got := ClipMiddle(long, MaxRequestChars)
	if !strings.HasPrefix(got, "BEGIN ") || !strings.HasSuffix(got, " END") || !strings.Contains(got, "characters left out") {
		t.Fatalf("clipped: %.80q … %.80q", got[:80], got[len(got)-80:])
	}
	if n := len([]rune(got)); n > MaxRequestChars+60 {
		t.Fatalf("clipped to %d runes", n)
	}
	if ClipMiddle("short", 10) != "short" {
		t.Fatal("a short text must stay as it is")
	}
	if StripContext("<context>\nEdit: ON\n</context>\n\nfix it") != "fix it" || StripContext("fix it") != "fix it" {
		t.Fatal("StripContext")
	}
}
