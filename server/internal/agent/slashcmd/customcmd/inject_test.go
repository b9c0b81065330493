package customcmd

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/test/corpus"
)

// Real command files that run shell commands as they expand: Gemini CLI's
// own example fs/grep-code.toml (!{grep -r {{args}} .}: {{args}} escaped
// for the shell inside !{...}, raw outside) and Claude Code's own
// commit-push-pr.md (three !`cmd` lines). Each command becomes a token the
// engine replaces with its output; nothing runs here.
func TestShellCommandsInRealFiles(t *testing.T) {
	root := t.TempDir()
	corpus.Copy(t, root, map[string]string{
		"google-gemini/gemini-cli/packages/cli/src/commands/extensions/examples/custom-commands/commands/fs/grep-code.toml": ".gemini/commands/fs/grep-code.toml",
		"anthropics/claude-code/.claude/commands/commit-push-pr.md":                                                         ".claude/commands/commit-push-pr.md",
		"anthropics/claude-code-docs/slash-commands/commit.md":                                                              ".claude/commands/plain.md",
	})
	cmds, problems, _ := Load(Dirs("", []string{root}, true), nil)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	m := byName(cmds)

	text, calls, err := m["fs:grep-code"].ExpandShell("it's; rm -rf x", Editor{}, "n1")
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Command != `grep -r "it's; rm -rf x" .` && calls[0].Command != `grep -r 'it'\''s; rm -rf x' .` {
		t.Fatalf("calls %+v", calls)
	}
	if !strings.Contains(text, "pattern `it's; rm -rf x`") || !strings.Contains(text, "Search Results:\n"+calls[0].Token) || strings.Contains(text, "!{") {
		t.Fatalf("text:\n%s", text)
	}

	text, calls, err = m["commit-push-pr"].ExpandShell("", Editor{}, "n2")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.Command)
	}
	if strings.Join(got, "|") != "git status|git diff HEAD|git branch --show-current" {
		t.Fatalf("commands %q", got)
	}
	if !strings.Contains(text, "- Current git status: "+calls[0].Token+"\n") || strings.Contains(text, "!`") {
		t.Fatalf("text:\n%s", text)
	}
	// Backquoted code that is not !`…` stays as written.
	if !strings.Contains(text, "`gh pr create`") {
		t.Fatalf("code span lost:\n%s", text)
	}
	if !m["commit-push-pr"].RunsShell() || m["plain"].RunsShell() {
		t.Fatal("RunsShell")
	}
	// Expand alone leaves the file as written (no tokens).
	if plain, _ := m["commit-push-pr"].Expand("", Editor{}); !strings.Contains(plain, "!`git status`") {
		t.Fatalf("Expand changed the commands:\n%s", plain)
	}
}

// Gemini's @{path} becomes an @-mention (read through read_file by the
// engine); nested braces in !{...} are kept; an open brace is an error.
func TestGeminiInjectionSyntax(t *testing.T) {
	c := Command{Name: "x", Format: FormatTOML, Template: "Review @{src/a.go} and:@{b.md}\n!{awk '{print $1}' f}\n{{args}}"}
	text, calls, err := c.ExpandShell("now", Editor{}, "n")
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Command != "awk '{print $1}' f" {
		t.Fatalf("calls %+v", calls)
	}
	if !strings.HasPrefix(text, "Review @src/a.go and: @b.md\n"+calls[0].Token+"\nnow") {
		t.Fatalf("text %q", text)
	}
	for _, bad := range []string{"!{echo {x}", "@{a.go", "@{a b.go}"} {
		if _, _, err := (Command{Name: "x", Format: FormatTOML, Template: bad}).ExpandShell("", Editor{}, "n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
