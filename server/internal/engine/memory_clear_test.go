package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestMemoryReminderAfterEdits: a turn that creates a file the L2
// inventory does not list (and removes one it does) gets a reminder in the
// next message's context block, once; files the inventory lists, and
// turns that change nothing, get none. The system prompt never changes.
func TestMemoryReminderAfterEdits(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile(".govibe/memory/L2-inventory.md", "# Inventory\n- `src/old.go` — the old handler\n- `src/gone.go` — to be removed\n- `data.go` — data\n")
	x.WriteFile("src/old.go", "package src\n")
	x.WriteFile("src/gone.go", "package src\n")

	x.Model.Enqueue(
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			{ID: "w1", Name: "write_file", Arguments: `{"filePath":"src/new.go","content":"package src\n"}`},
			{ID: "w2", Name: "write_file", Arguments: `{"filePath":"src/old.go","content":"package src\n\n// changed\n"}`},
			{ID: "w3", Name: "write_file", Arguments: `{"filePath":"a.go","content":"package main\n"}`},
			{ID: "d1", Name: "delete_file", Arguments: `{"filePath":"src/gone.go"}`},
		}},
		scripted.Reply{Text: "done"})
	sid, _ := x.Turn("", "add a handler")
	if u := lastUser(x); strings.Contains(u, "Memory:") {
		t.Fatalf("a reminder before anything changed:\n%s", u)
	}

	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	x.Turn(sid, "next")
	u := lastUser(x)
	ctxBlock, _, _ := strings.Cut(u, "</context>")
	want := "Memory: .govibe/memory/L2-inventory.md does not list a.go, src/new.go and still lists removed src/gone.go; update it (one line per file)."
	if !strings.Contains(ctxBlock, want) {
		t.Fatalf("the context block lacks the reminder %q:\n%s", want, u)
	}
	if strings.Contains(ctxBlock, "src/old.go") {
		t.Fatalf("a listed file was reported:\n%s", ctxBlock)
	}

	x.Model.Enqueue(scripted.Reply{Text: "ok"})
	x.Turn(sid, "again")
	if u := lastUser(x); strings.Contains(u, "Memory:") {
		t.Fatalf("the reminder must be given once:\n%s", u)
	}
	sys := x.Model.Requests()[0].Messages[0].Content
	for _, r := range x.Model.Requests() {
		if r.Messages[0].Content != sys {
			t.Fatal("the system prompt changed")
		}
	}
}

// TestNoMemoryNoReminder: without an inventory, edits leave no reminder.
func TestNoMemoryNoReminder(t *testing.T) {
	x := enginetest.New(t, nil)
	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"filePath":"n.go","content":"package n\n"}`}}},
		scripted.Reply{Text: "done"}, scripted.Reply{Text: "ok"})
	sid, _ := x.Turn("", "write")
	x.Turn(sid, "next")
	if u := lastUser(x); strings.Contains(u, "Memory:") {
		t.Fatalf("a reminder without project memory:\n%s", u)
	}
}

// TestClearKeepsTheSessionAndForgetsTheContext: /clear answers in the same
// session, keeps its transcript, and the next request carries only the
// system prompt and the new message, with AGENTS.md sent again. /new
// opens another session and leaves this one's context alone.
func TestClearKeepsTheSessionAndForgetsTheContext(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile("AGENTS.md", "ROOT-RULE-1\n")
	x.Model.Enqueue(scripted.Reply{Text: "first answer"}, scripted.Reply{Text: "second"})
	sid, _ := x.Turn("", "remember BANANA")
	x.Turn(sid, "and CHERRY")
	if n := len(x.Track(sid)); n != 4 {
		t.Fatalf("track before clear: %d messages", n)
	}

	got, job, err := x.E.Send(context.Background(), engine.SendParams{SessionID: sid, Text: "/clear"})
	if err != nil || got != sid {
		t.Fatalf("/clear: session %q (want %q), %v", got, sid, err)
	}
	x.Await("clear finished", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.TurnFinished) {
			if ev.TurnID == job {
				return true
			}
		}
		return false
	})
	if n := len(x.Track(sid)); n != 0 {
		t.Fatalf("the model track still holds %d messages", n)
	}
	page, err := x.E.Store.LoadMessages(context.Background(), sid, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, m := range page.Messages {
		for _, p := range m.Parts {
			text += p.Text
			if p.Notice != nil {
				text += p.Notice.Text
			}
		}
	}
	if !strings.Contains(text, "BANANA") || !strings.Contains(text, "Context cleared") {
		t.Fatalf("the transcript must stay, with a notice: %q", text)
	}

	x.Model.Enqueue(scripted.Reply{Text: "fresh"})
	x.Turn(sid, "what now?")
	r := x.Model.Requests()[len(x.Model.Requests())-1]
	if len(r.Messages) != 2 {
		t.Fatalf("after /clear the request must hold the system prompt and one message, got %d", len(r.Messages))
	}
	if u := r.LastUserMessage(); strings.Contains(u, "BANANA") || !strings.Contains(u, "ROOT-RULE-1") {
		t.Fatalf("after /clear: no history, AGENTS.md again:\n%s", u)
	}

	other, _, err := x.E.Send(context.Background(), engine.SendParams{SessionID: sid, Text: "/new"})
	if err != nil || other == sid {
		t.Fatalf("/new must open another session: %q, %v", other, err)
	}
	if n := len(x.Track(sid)); n != 2 {
		t.Fatalf("/new changed the old session's context: %d", n)
	}
}
