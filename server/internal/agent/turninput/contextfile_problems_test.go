package turninput_test

import (
	"github.com/govibe/govibe/protocol/kinds"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestContextFileProblemsAreShownOnce: a malformed instructions file and
// a govibe.contextFiles entry outside the workspace are each a warning
// notice in the session, once, naming the file (and its line); the good
// context files still reach the model.
func TestContextFileProblemsAreShownOnce(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Reopen(map[string]any{"contextFiles": []any{"../outside.md"}})
	x.WriteFile("AGENTS.md", "GOOD-RULE\n")
	x.WriteFile(".github/instructions/bad.instructions.md", "---\napplyTo: [\n---\nx\n")
	x.Model.Enqueue(scripted.Reply{Text: "ok"}, scripted.Reply{Text: "ok"})
	sid, _ := x.Turn("", "hello")
	x.Turn(sid, "again")
	if u := x.Model.Requests()[0].LastUserMessage(); !strings.Contains(u, "GOOD-RULE") {
		t.Fatalf("AGENTS.md did not reach the model:\n%s", u)
	}
	var warned []string
	for _, ev := range x.EventsOf(sid, kinds.Notice) {
		if strings.HasPrefix(ev.Text, "Context file not loaded: ") {
			warned = append(warned, ev.Text)
		}
	}
	all := strings.Join(warned, "\n")
	if len(warned) != 2 || !strings.Contains(all, "bad.instructions.md: line 2") || !strings.Contains(all, `"../outside.md" is outside the workspace`) {
		t.Fatalf("want two warnings, once each, got:\n%s", all)
	}
}
