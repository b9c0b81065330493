package turninput_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExtrasKeptWithTheSession: the context files and attachments of a
// user message survive a restart of the engine, by message id.
func TestExtrasKeptWithTheSession(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile("AGENTS.md", "RULE\n")
	x.WriteFile("notes.txt", "NOTE\n")
	x.Model.Enqueue(scripted.Reply{Text: "ok"}, scripted.Reply{Text: "ok"})
	sid, first := x.Turn("", "read @notes.txt and @missing.txt")
	_, second := x.Turn(sid, "plain")
	x.Reopen(nil)
	all := x.E.TurnInput.MessageExtras(context.Background(), sid)
	ex, ok := all[first]
	if !ok || len(ex.ContextFiles) != 1 || ex.ContextFiles[0] != "AGENTS.md" || len(ex.Attachments) != 2 {
		t.Fatalf("first message's extras after a restart: %+v", all)
	}
	if a := ex.Attachments[0]; a.Raw != "@notes.txt" || a.Kind != "file" || a.Chars == 0 || a.Error != "" {
		t.Fatalf("attachment: %+v", a)
	}
	if ex.Attachments[1].Error == "" {
		t.Fatalf("the missing file's error was not kept: %+v", ex.Attachments[1])
	}
	if _, ok := all[second]; ok {
		t.Fatal("a message with nothing attached got an entry")
	}
}
