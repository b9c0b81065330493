package engine_test

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/corpus"
)

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
	x.WriteFile(".claude/commands/review-pr.md", corpus.Read(t, "anthropics/claude-code-docs/slash-commands/review-pr.md"))
	x.WriteFile(".claude/commands/commit.md", corpus.Read(t, "anthropics/claude-code-docs/slash-commands/commit.md"))
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
