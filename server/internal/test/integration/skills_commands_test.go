package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func toolNames(r scripted.RecordedRequest) []string {
	var out []string
	for _, x := range r.Tools {
		out = append(out, x.Name)
	}
	slices.Sort(out)
	return out
}

// TestCustomCommandModelAndTools: a custom command's frontmatter model
// and allowedTools (Claude names mapped) hold for its turn only: the
// request names that model and offers only those tools; the next plain
// message is back on the session's model and full tool list.
func TestCustomCommandModelAndTools(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		writeTree(t, ws, map[string]string{
			".govibe/commands/look.md": "---\ndescription: Look at a file\nmodel: review-model\nallowedTools: [read_file, Grep]\n---\nLook at $ARGUMENTS and say what it does.\n",
			"main.go":                  "package main\n",
		})
		model := scripted.Start(t, scripted.Reply{Text: "looked"}, scripted.Reply{Text: "plain"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789",
			// review-model is one of the user's profiles: a name no profile
			// or provider knows is never sent (see TestClaudeCommandsAsTheDocsWriteThem).
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model",
				"models": []any{map[string]any{"name": "review-model", "model": "review-model"}}}})
		r := send(t, ed, "", "/look main.go")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		r2 := send(t, ed, r.SessionID, "hello")
		ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second)

		reqs := model.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests", len(reqs))
		}
		if reqs[0].Model != "review-model" || !strings.Contains(reqs[0].LastUserMessage(), "Look at main.go and say what it does.") {
			t.Fatalf("command turn: model %q, message %q", reqs[0].Model, reqs[0].LastUserMessage())
		}
		if got := toolNames(reqs[0]); !slices.Equal(got, []string{"grep_search", "read_file"}) {
			t.Fatalf("command turn offered %v", got)
		}
		if reqs[1].Model != "scripted-model" || !slices.Contains(toolNames(reqs[1]), "run_shell_command") || len(reqs[1].Tools) < 10 {
			t.Fatalf("the next turn kept the command's limits: model %q, tools %v", reqs[1].Model, toolNames(reqs[1]))
		}
	})
}

// TestSkillsPickerMethods: skills/list marks active skills; activating one
// names it in the next message's context block (the system prompt stays
// byte-identical); deactivating removes it; bad input is refused.
func TestSkillsPickerMethods(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"}, scripted.Reply{Text: "three"})
		ed := connect(t, bin, model, nil)
		r := send(t, ed, "", "hi")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		sid := r.SessionID

		var list protocol.SkillsListResult
		if err := ed.Call("skills/list", protocol.SkillsListParams{SessionID: sid}, &list); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range list.Skills {
			if s.Name == "code-reviewer" {
				found = s.Source == "builtin" && !s.Active && s.Description != ""
			}
		}
		if !found {
			t.Fatalf("skills/list: %+v", list.Skills)
		}
		if err := ed.Call("skills/setActive", protocol.SkillsSetActiveParams{SessionID: sid, Name: "code-reviewer", Active: true}, &list); err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(list.Skills, func(s protocol.SkillInfo) bool { return s.Name == "code-reviewer" }); i < 0 || !list.Skills[i].Active || list.Skills[i].Scope != "session" {
			t.Fatalf("after activation: %+v", list.Skills)
		}
		r = send(t, ed, sid, "review please")
		ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
		if u := model.Requests()[1].LastUserMessage(); !strings.Contains(u, "Active skills: code-reviewer") {
			t.Fatalf("the context block does not name the active skill:\n%s", u)
		}
		if err := ed.Call("skills/setActive", protocol.SkillsSetActiveParams{SessionID: sid, Name: "code-reviewer"}, &list); err != nil {
			t.Fatal(err)
		}
		r = send(t, ed, sid, "thanks")
		ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second)
		reqs := model.Requests()
		if u := reqs[2].LastUserMessage(); strings.Contains(u, "Active skills") {
			t.Fatalf("a deactivated skill is still named:\n%s", u)
		}
		for _, q := range reqs {
			if q.Messages[0].Content != reqs[0].Messages[0].Content {
				t.Fatal("activating a skill changed the system prompt")
			}
		}
		for _, bad := range []protocol.SkillsSetActiveParams{{SessionID: sid, Name: "no-such-skill", Active: true}, {SessionID: sid, Active: true}, {Name: "code-reviewer", Active: true}} {
			if err := ed.Call("skills/setActive", bad, &list); err == nil || !strings.Contains(err.Error(), "skills/setActive") {
				t.Fatalf("%+v: want a clear refusal, got %v", bad, err)
			}
		}
	})
}

// TestTerminalMentionAndExtrasOnReload: @terminal asks the editor for the
// active terminal's output, which reaches the model with its secrets
// scrubbed; session/load shows the message's attachments and context
// files again. Without the capability the mention says why it is empty.
func TestTerminalMentionAndExtrasOnReload(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		writeTree(t, ws, map[string]string{"AGENTS.md": "Use tabs.\n", "notes.txt": "NOTE-BODY\n"})
		model := scripted.Start(t, scripted.Reply{Text: "seen"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789", TerminalOutput: true,
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "scripted-model"}})
		var asked protocol.TerminalOutputParams
		ed.OnRequest("editor/terminalOutput", func(p json.RawMessage) (any, error) {
			_ = json.Unmarshal(p, &asked)
			return protocol.TerminalOutputResult{Available: true, Name: "bash", Text: "$ go test ./...\nFAIL example.com/x\nexport API_TOKEN=abcd1234secretvalue\n"}, nil
		})
		r := send(t, ed, "", "why does it fail? @terminal @notes.txt")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		u := model.Requests()[0].LastUserMessage()
		if !strings.Contains(u, "FAIL example.com/x") || !strings.Contains(u, `Terminal "bash"`) || strings.Contains(u, "abcd1234secretvalue") || !strings.Contains(u, "NOTE-BODY") {
			t.Fatalf("the model's message:\n%s", u)
		}
		if asked.MaxChars <= 0 {
			t.Fatalf("the request must bound the output: %+v", asked)
		}
		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
			t.Fatal(err)
		}
		var user *protocol.Message
		for i := range load.Messages {
			if load.Messages[i].Role == "user" {
				user = &load.Messages[i]
			}
		}
		if user == nil || len(user.Attachments) != 2 || user.Attachments[0].Kind != "terminal" || user.Attachments[1].Raw != "@notes.txt" ||
			len(user.ContextFiles) != 1 || user.ContextFiles[0] != "AGENTS.md" {
			t.Fatalf("session/load lost the extras: %+v", user)
		}
	})
	t.Run("no shell integration", func(t *testing.T) {
		model := scripted.Start(t, scripted.Reply{Text: "ok"})
		ed := connect(t, "", model, nil)
		r := send(t, ed, "", "look @terminal")
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if u := model.Requests()[0].LastUserMessage(); !strings.Contains(u, `mention="@terminal" error="the terminal's output is not available here`) {
			t.Fatalf("want the reason in the attachment:\n%s", u)
		}
	})
}
