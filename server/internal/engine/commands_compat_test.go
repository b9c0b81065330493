package engine_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/corpus"
)

// compatFile is a file of the shared corpus (testdata/compat), which
// must name its source in a .source note beside it.
func compatFile(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(corpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// trustedEnv is an engine in a trusted workspace (project commands load)
// with HOME in a temporary folder.
func trustedEnv(t *testing.T) *enginetest.Env {
	t.Setenv("HOME", t.TempDir())
	x := &enginetest.Env{T: t, Model: scripted.Start(t), Dir: t.TempDir(), State: t.TempDir()}
	return x
}

// Claude Code's own examples from its slash-command docs: the unquoted
// `argument-hint: [pr-number] [priority] [assignee]` loads and $1…$3 are
// filled; `model: claude-3-5-haiku-20241022` is never sent to the
// provider: the session's model answers, or the reviewer role's profile
// when one is configured.
func TestClaudeCommandsAsTheDocsWriteThem(t *testing.T) {
	x := trustedEnv(t)
	x.WriteFile(".claude/commands/review-pr.md", compatFile(t, "anthropics/claude-code-docs/slash-commands/review-pr.md"))
	x.WriteFile(".claude/commands/commit.md", compatFile(t, "anthropics/claude-code-docs/slash-commands/commit.md"))
	x.OpenTrusted(nil, true)
	x.Model.Enqueue(scripted.Reply{Text: "reviewed"}, scripted.Reply{Text: "committed"})
	x.Turn("", "/review-pr 456 high alice")
	reqs := x.Model.Requests()
	if u := reqs[0].LastUserMessage(); !strings.Contains(u, "Review PR #456 with priority high and assign to alice.") {
		t.Fatalf("the command did not expand:\n%s", u)
	}
	x.Turn("", "/commit fix the typo")
	reqs = x.Model.Requests()
	last := reqs[len(reqs)-1]
	if last.Model != "scripted-model" || !strings.Contains(last.LastUserMessage(), "Create a git commit with message: fix the typo") {
		t.Fatalf("model %q, message:\n%s", last.Model, last.LastUserMessage())
	}

	// With a reviewer profile, the small model's turn uses it.
	x.Close()
	x.OpenTrusted(config.Values{
		"models":         []any{map[string]any{"name": "fast", "model": "scripted-small", "baseUrl": x.Model.URL()}},
		"roles.reviewer": "fast",
	}, true)
	x.Model.Enqueue(scripted.Reply{Text: "committed"})
	x.Turn("", "/commit again")
	reqs = x.Model.Requests()
	if m := reqs[len(reqs)-1].Model; m != "scripted-small" {
		t.Fatalf("a haiku command's turn ran on %q, want the reviewer profile's scripted-small", m)
	}
}

// A hook reads transcript_path, a JSONL file of the conversation in
// Claude Code's line shape, and permission_mode.
func TestHookTranscriptIsReadable(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (.ci/run installs it)")
	}
	out := t.TempDir()
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"PreToolUse": {"Read": "in=$(cat); echo \"$in\" | jq -r .permission_mode > " + out + "/mode; cp \"$(echo \"$in\" | jq -r .transcript_path)\" " + out + "/t.jsonl\n"},
	}, 0))
	x.WriteFile("a.txt", "AAA\n")
	x.Model.Enqueue(scripted.Reply{Text: "looking"}, scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		scripted.Reply{Text: "done"})
	sid, _ := x.Turn("", "first question")
	x.Turn(sid, "read a.txt please")
	mode, _ := os.ReadFile(filepath.Join(out, "mode"))
	if strings.TrimSpace(string(mode)) != "bypassPermissions" { // headless --approve all
		t.Fatalf("permission_mode %q", mode)
	}
	f, err := os.Open(filepath.Join(out, "t.jsonl"))
	if err != nil {
		t.Fatalf("the transcript was not readable: %v", err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Type      string `json:"type"`
			SessionID string `json:"sessionId"`
			Message   struct {
				Role    string `json:"role"`
				Content []struct {
					Type, Text, Name string
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.SessionID != sid {
			t.Fatalf("line %s: %v", sc.Text(), err)
		}
		for _, c := range line.Message.Content {
			texts = append(texts, line.Message.Role+":"+c.Type+":"+c.Text+c.Name)
		}
	}
	got := strings.Join(texts, "|")
	for _, want := range []string{"user:text:first question", "assistant:text:looking", "user:text:read a.txt please", "assistant:tool_use:Read"} {
		if !strings.Contains(got, want) {
			t.Fatalf("transcript lacks %q: %s", want, got)
		}
	}
}
