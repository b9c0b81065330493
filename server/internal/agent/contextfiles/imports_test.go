package contextfiles

import (
	"path/filepath"
	"strings"
	"testing"
)

func errs(ps []error) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return strings.Join(out, "\n")
}

// TestImportLimits: depth, cycles, the workspace and home boundary,
// masked secrets, code, e-mail addresses and the byte cap.
func TestImportLimits(t *testing.T) {
	home, outside, root := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	write(t, home, ".claude/mine.md", "home prefs")
	write(t, home, ".ssh/config.md", "Host secret")
	write(t, outside, "x.md", "outside text")
	write(t, root, ".env", "API_KEY=1")
	// a chain seven deep: 1 imports 2 … imports 7.
	for i := 1; i <= 7; i++ {
		write(t, root, "chain/"+string(rune('0'+i))+".md", "level"+string(rune('0'+i))+" @"+string(rune('0'+i+1))+".md")
	}
	write(t, root, "a.md", "A @b.md")
	write(t, root, "b.md", "B @a.md")
	write(t, root, "AGENTS.md", strings.Join([]string{
		"@chain/1.md",
		"@a.md",
		"- mine: @~/.claude/mine.md",
		"- key: @.env and @~/.ssh/config.md",
		"- out: @" + filepath.Join(outside, "x.md"),
		"mail me at dev@a.md, or `@a.md` in code",
		"```",
		"@a.md",
		"```",
		"@nosuchfile.md stays as written",
	}, "\n"))
	files, problems := Load([]string{root}, nil)
	a, _ := find(files, "AGENTS.md")
	for _, want := range []string{"level5", "home prefs", "Imported from: ~/.claude/mine.md", "@nosuchfile.md stays as written"} {
		if !strings.Contains(a.Content, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, not := range []string{"level6", "API_KEY", "Host secret", "outside text"} {
		if strings.Contains(a.Content, not) {
			t.Errorf("imported %q:\n%s", not, a.Content)
		}
	}
	if n := strings.Count(a.Content, "Imported from: a.md"); n != 1 {
		// once from AGENTS.md; b.md's import of a.md is the cycle
		t.Errorf("a.md imported %d times (code, fences and e-mail must not import):\n%s", n, a.Content)
	}
	all := errs(problems)
	for _, want := range []string{"nest at most 5 levels", "a cycle", "@.env is not imported: it is a secret", "@~/.ssh/config.md is not imported: it is a secret", "only files in the workspace folders and the home folder"} {
		if !strings.Contains(all, want) {
			t.Errorf("problem %q not reported:\n%s", want, all)
		}
	}

	before := a.Hash
	write(t, root, "b.md", "B changed @a.md")
	files, _ = Load([]string{root}, nil)
	if a2, _ := find(files, "AGENTS.md"); a2.Hash == before {
		t.Error("editing an imported file does not change the context file's hash")
	}

	big := t.TempDir()
	write(t, big, "huge.md", strings.Repeat("x", MaxExpandedBytes+10))
	write(t, big, "CLAUDE.md", "@huge.md @huge2.md")
	write(t, big, "huge2.md", "more")
	files, _ = Load([]string{big}, nil)
	c, _ := find(files, "CLAUDE.md")
	if len(c.Content) > MaxExpandedBytes+2048 || !strings.Contains(c.Content, "imports of one context file stop at 64 KB") {
		t.Fatalf("expansion not bounded: %d bytes", len(c.Content))
	}
}
