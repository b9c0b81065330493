package engine_test

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestMemoryPointerOnceNotTheLevels: with project memory, the session's
// first message carries one line naming .govibe/memory/ and its levels,
// never their contents, and never in the system prompt; editing a level
// sends nothing again; memory created later in the session (by /init) is
// announced once in the next message.
func TestMemoryPointerOnceNotTheLevels(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile(".govibe/memory/L1-purpose.md", "SECRET-PURPOSE-TEXT\n")
	x.WriteFile(".govibe/memory/L2-inventory.md", "- `a.go` — a\n")
	x.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	sid, _ := x.Turn("", "hello")
	u := lastUser(x)
	if !strings.Contains(u, "Project memory is in .govibe/memory/ (L1-purpose.md, L2-inventory.md)") || strings.Count(u, "Project memory is in") != 1 {
		t.Fatalf("the first message lacks the pointer:\n%s", u)
	}
	if strings.Contains(u, "SECRET-PURPOSE-TEXT") {
		t.Fatalf("a level's content was sent:\n%s", u)
	}
	if sys := x.Model.Requests()[0].Messages[0].Content; strings.Contains(sys, "Project memory is in") {
		t.Fatal("the pointer is in the system prompt")
	}
	x.WriteFile(".govibe/memory/L2-inventory.md", "- `a.go` — a\n- `b.go` — b\n")
	x.Turn(sid, "next")
	if u := lastUser(x); strings.Contains(u, "Project memory is in") || strings.Contains(u, "context_files_changed") {
		t.Fatalf("an edited level was announced again:\n%s", u)
	}

	y := enginetest.New(t, nil)
	y.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	sid, _ = y.Turn("", "hello")
	if u := lastUser(y); strings.Contains(u, "Project memory is in") {
		t.Fatalf("a pointer without memory:\n%s", u)
	}
	y.WriteFile(".govibe/memory/README.md", "rules\n")
	y.Turn(sid, "after init")
	if u := lastUser(y); !strings.Contains(u, "added .govibe/memory/") || !strings.Contains(u, "Project memory is in .govibe/memory/ (README.md)") {
		t.Fatalf("memory created mid-session was not announced:\n%s", u)
	}
}
