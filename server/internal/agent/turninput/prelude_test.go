package turninput_test

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func lastUser(x *enginetest.Env) string {
	reqs := x.Model.Requests()
	return reqs[len(reqs)-1].LastUserMessage()
}

// TestContextFilesOnceThenChanges: AGENTS.md goes in the session's first
// user message only (never the system prompt), a sub-folder AGENTS.md
// once the agent read a file there, an edit to the root file as a change
// notice, and nothing when nothing changed. The UI learns which were sent.
func TestContextFilesOnceThenChanges(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile("AGENTS.md", "Use tabs. ROOT-RULE-1\n")
	x.WriteFile("pkg/AGENTS.md", "Package rule SUB-RULE-7\n")
	x.WriteFile("pkg/x.go", "package pkg\n")

	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"pkg/x.go"}`}}}, scripted.Reply{Text: "ok"})
	sid, _ := x.Turn("", "hello")
	first := x.Model.Requests()[0]
	if !strings.Contains(first.LastUserMessage(), "ROOT-RULE-1") || strings.Contains(first.Messages[0].Content, "ROOT-RULE-1") {
		t.Fatalf("AGENTS.md must be in the first user message and not the system prompt:\n%s", first.LastUserMessage())
	}
	msgs := x.EventsOf(sid, kinds.Message)
	if ex := msgs[0].Extras; ex == nil || len(ex.ContextFiles) != 1 || ex.ContextFiles[0] != "AGENTS.md" {
		t.Fatalf("the UI was not told which context files were sent: %#v", msgs[0].Extras)
	}

	// The sub-folder's AGENTS.md reaches the model in the same turn, with
	// the result of the read that reached its folder, as Claude Code and
	// Codex load nested files; once only.
	second := x.Model.Requests()[1]
	if res := second.Messages[len(second.Messages)-1]; res.Role != "tool" || !strings.Contains(res.Content, "SUB-RULE-7") || strings.Contains(res.Content, "ROOT-RULE-1") {
		t.Fatalf("the read's result does not carry pkg/AGENTS.md:\n%+v", res)
	}
	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r2", Name: "read_file", Arguments: `{"filePath":"pkg/x.go"}`}}}, scripted.Reply{Text: "ok"})
	x.Turn(sid, "next")
	reqs := x.Model.Requests()
	if u, res := reqs[2].LastUserMessage(), reqs[3].Messages[len(reqs[3].Messages)-1].Content; strings.Contains(u, "SUB-RULE-7") || strings.Contains(res, "SUB-RULE-7") {
		t.Fatalf("pkg/AGENTS.md sent twice:\n%s\n%s", u, res)
	}

	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	x.Turn(sid, "again")
	if u := lastUser(x); strings.Contains(u, "context_files") {
		t.Fatalf("nothing changed, yet context files were sent again:\n%s", u)
	}

	x.WriteFile("AGENTS.md", "Use spaces. ROOT-RULE-2\n")
	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	x.Turn(sid, "after edit")
	if u := lastUser(x); !strings.Contains(u, "changed AGENTS.md") || !strings.Contains(u, "ROOT-RULE-2") || strings.Contains(u, "SUB-RULE-7") {
		t.Fatalf("after an edit: want a change notice with the new text only:\n%s", u)
	}
	sys := x.Model.Requests()[0].Messages[0].Content
	for _, r := range x.Model.Requests() {
		if r.Messages[0].Content != sys {
			t.Fatal("the system prompt changed")
		}
	}
}

// TestMentionsExpandedBeforeTheModelCall: @file is attached to the model's
// user message, an escape is refused with a reason, and the UI gets the
// attachment list.
func TestMentionsExpandedBeforeTheModelCall(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile("notes.txt", "MENTIONED-CONTENT\n")
	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	sid, _ := x.Turn("", "look at @notes.txt and @../../etc/passwd")
	u := lastUser(x)
	if !strings.Contains(u, "<attachments>") || !strings.Contains(u, "MENTIONED-CONTENT") || strings.Contains(u, "root:x:0") {
		t.Fatalf("attachments in the model message:\n%s", u)
	}
	ex := x.EventsOf(sid, kinds.Message)[0].Extras
	if ex == nil || len(ex.Attachments) != 2 {
		t.Fatalf("attachments for the UI: %#v", ex)
	}
	if a := ex.Attachments[0]; a.Raw != "@notes.txt" || a.Chars == 0 || a.Error != "" {
		t.Fatalf("file attachment: %#v", a)
	}
	if a := ex.Attachments[1]; a.Error == "" {
		t.Fatalf("an escaping mention was not refused: %#v", a)
	}
}
