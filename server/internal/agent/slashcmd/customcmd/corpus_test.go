package customcmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/test/corpus"
)

// Real command files from public repositories and Claude Code's docs
// (testdata/compat, each with a .source note; package corpus) load and
// expand as their own tools document.

func TestRealCommandFiles(t *testing.T) {
	root := t.TempDir()
	corpus.Copy(t, root, map[string]string{
		"anthropics/claude-code-docs/slash-commands/review-pr.md":                                                           ".claude/commands/docs/review-pr.md",
		"anthropics/claude-code-docs/slash-commands/commit.md":                                                              ".claude/commands/docs/commit.md",
		"anthropics/claude-code/.claude/commands/commit-push-pr.md":                                                         ".claude/commands/commit-push-pr.md",
		"anthropics/claude-code/plugins/pr-review-toolkit/commands/review-pr.md":                                            ".claude/commands/review-pr.md",
		"google-gemini/gemini-cli/.gemini/commands/code-guide.toml":                                                         ".gemini/commands/code-guide.toml",
		"google-gemini/gemini-cli/.gemini/commands/review-frontend.toml":                                                    ".gemini/commands/review-frontend.toml",
		"google-gemini/gemini-cli/.gemini/commands/strict-development-rules.md":                                             ".gemini/commands/strict-development-rules.md",
		"google-gemini/gemini-cli/packages/cli/src/commands/extensions/examples/custom-commands/commands/fs/grep-code.toml": ".gemini/commands/fs/grep-code.toml",
		"github/awesome-copilot/prompts/arch-linux-triage.prompt.md":                                                        ".github/prompts/arch-linux-triage.prompt.md",
	})
	cmds, problems, conflicts := Load(Dirs("", []string{root}, true), nil)
	if len(problems) != 0 || len(conflicts) != 0 {
		t.Fatalf("problems %v, conflicts %v", problems, conflicts)
	}
	m := byName(cmds)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	want := []string{"arch-linux-triage", "code-guide", "commit-push-pr", "docs:commit", "docs:review-pr", "fs:grep-code", "review-frontend", "review-pr"}
	if !slices.Equal(names, want) {
		t.Fatalf("commands %v, want %v (Gemini's included Markdown is not a command)", names, want)
	}

	// Claude Code's docs: unquoted argument-hint, positional arguments.
	rp := m["docs:review-pr"]
	if rp.ArgumentHint != "[pr-number] [priority] [assignee]" || rp.Description != "Review pull request" {
		t.Fatalf("docs review-pr: %+v", rp)
	}
	if got, _ := rp.Expand("456 high alice", Editor{}); !strings.HasPrefix(got, "Review PR #456 with priority high and assign to alice.") {
		t.Fatalf("docs review-pr: %q", got)
	}
	cm := m["docs:commit"]
	if cm.Model != "claude-3-5-haiku-20241022" || cm.ArgumentHint != "[message]" || len(cm.AllowedTools) != 3 || cm.AllowedTools[0] != "Bash(git add:*)" {
		t.Fatalf("docs commit: %+v", cm)
	}
	if got, _ := cm.Expand("fix typo", Editor{}); got != "Create a git commit with message: fix typo" {
		t.Fatalf("docs commit: %q", got)
	}
	// anthropics/claude-code's own commands: comma-separated patterns and
	// a JSON-style list.
	if cp := m["commit-push-pr"]; len(cp.AllowedTools) != 6 || cp.AllowedTools[5] != "Bash(gh pr create:*)" {
		t.Fatalf("commit-push-pr tools: %q", cp.AllowedTools)
	}
	if pr := m["review-pr"]; pr.ArgumentHint != "[review-aspects]" || !slices.Equal(pr.AllowedTools, []string{"Bash", "Glob", "Grep", "Read", "Task"}) {
		t.Fatalf("review-pr: %+v", pr)
	}
	// Gemini CLI: {{args}}.
	if got, _ := m["code-guide"].Expand("how do hooks work?", Editor{}); !strings.Contains(got, "### QUESTION:\n\nhow do hooks work?") {
		t.Fatalf("code-guide: %q", got)
	}
	// VS Code prompt file: ${input:name}, given by name.
	got, err := m["arch-linux-triage"].Expand("ArchSnapshot=6.9 ProblemSummary=boot Constraints=none", Editor{})
	if err != nil || !strings.Contains(got, "- `6.9` (optional)") || !strings.Contains(got, "- `boot`") {
		t.Fatalf("prompt file: %q %v", got, err)
	}
}
