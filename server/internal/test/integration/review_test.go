package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestDangerousCommandShowsAnalysisAndReview runs the whole shell pipeline
// over the wire: the command editor and the security reviewer answer from
// their own scripts (routed by system prompt), and the user sees the
// dangerous classification with its reasons and the review card.
func TestDangerousCommandShowsAnalysisAndReview(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		victim := filepath.Join(t.TempDir(), "keep")
		os.MkdirAll(victim, 0o755)
		command := "rm -rf " + victim
		model := scripted.Start(t)
		mainN := 0
		model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
			switch r.Messages[0].Content {
			case review.SystemPrompt(review.KindShellEditor):
				return scripted.Reply{Text: `{"command": "` + command + `", "reason": ""}`}
			case review.SystemPrompt(review.KindShell):
				return scripted.Reply{Text: `{"approved": true, "problems": [{"severity": "warning", "message": "deletes a folder outside the workspace", "location": "` + victim + `"}]}`}
			}
			mainN++
			if mainN == 1 {
				return scripted.Reply{ToolCalls: []scripted.ToolCall{call("s1", "run_shell_command", `{"command":"`+command+`"}`)}}
			}
			return scripted.Reply{Text: "ok"}
		})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, Settings: map[string]any{
			"apiBaseUrl": model.URL(), "model": "m", "shellCommandReview.enabled": true, "autoApprove.readOnlyCommands": true}})
		r := send(t, ed, "", "clean the cache")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "shell" || c.Command != command || c.Analysis == nil || c.Analysis.Class != "dangerous" || len(c.Analysis.Reasons) == 0 {
			t.Fatalf("confirmation %+v", c)
		}
		if c.Review == nil || c.Review.Kind != "shell" || !c.Review.Approved || len(c.Review.Problems) != 1 || c.Review.Problems[0].Severity != "warning" {
			t.Fatalf("review %+v", c.Review)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "not outside the workspace"})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if _, err := os.Stat(victim); err != nil {
			t.Fatal("the rejected command ran")
		}
		var card *protocol.ReviewCard
		for _, ev := range ed.Events(r.SessionID) {
			if ev.Kind == kinds.Review {
				card = ev.Review
			}
		}
		if card == nil || !card.Approved || card.Kind != "shell" {
			t.Fatalf("no review card event: %+v", card)
		}
		if got := lastToolResult(t, model); !strings.Contains(got, "not outside the workspace") {
			t.Fatalf("the model was not told: %q", got)
		}
	})
}

// TestEditReviewRejectionNeverReachesTheUser: a placeholder edit is sent
// back to the model, whose complete rewrite is then shown to the user.
func TestEditReviewRejectionNeverReachesTheUser(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n\nfunc A() int { return 1 }\n\nfunc B() int { return 2 }\n"), 0o644)
	model := scripted.Start(t)
	mainN := 0
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if r.Messages[0].Content == review.SystemPrompt(review.KindEdit) {
			return scripted.Reply{Text: `{"approved": true, "problems": []}`}
		}
		mainN++
		switch mainN {
		case 1:
			return scripted.Reply{ToolCalls: []scripted.ToolCall{call("r", "read_file", `{"filePath":"a.go"}`)}}
		case 2:
			return scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"a.go","content":"package a\n\nfunc A() int { return 10 }\n\n// ... rest of code unchanged\n"}`)}}
		case 3:
			return scripted.Reply{ToolCalls: []scripted.ToolCall{call("w2", "write_file", `{"filePath":"a.go","content":"package a\n\nfunc A() int { return 10 }\n\nfunc B() int { return 2 }\n"}`)}}
		}
		return scripted.Reply{Text: "done"}
	})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "editReview.enabled": true}})
	r := send(t, ed, "", "make A return 10")
	c := awaitConfirm(t, ed, 1)
	if !strings.Contains(c.Proposed, "func B()") || c.Review == nil || !c.Review.Approved {
		t.Fatalf("the user saw %q with review %+v", c.Proposed, c.Review)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if n := len(ed.Notifications("confirm/requested")); n != 1 {
		t.Fatalf("the user was asked %d times", n)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.go")); !strings.Contains(string(b), "return 10") || !strings.Contains(string(b), "func B()") {
		t.Fatalf("file %q", b)
	}
}
