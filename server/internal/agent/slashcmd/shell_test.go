package slashcmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A command that runs shell commands as it expands gives them to its turn
// only in a trusted workspace, and a Claude command only when its
// allowed-tools name Bash, as Claude Code's docs require; a GoVibe command
// needs no list.
func TestShellCommandsNeedTrustAndBash(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	write(t, filepath.Join(f.home, ".claude", "commands", "st.md"), "---\nallowed-tools: Bash(git status:*)\n---\nStatus: !`git status`")
	write(t, filepath.Join(f.home, ".claude", "commands", "nobash.md"), "---\nallowed-tools: Read, Grep\n---\nStatus: !`git status`")
	write(t, filepath.Join(f.home, ".govibe", "commands", "mine.md"), "Status: !`git status`")

	if _, _, err := f.c.Run(ctx, Params{}, "/st"); err == nil || !strings.Contains(err.Error(), "only a trusted workspace allows") {
		t.Fatalf("untrusted: %v", err)
	}
	f.trusted = true
	f.c.Reset()
	out, _, err := f.c.Run(ctx, Params{}, "/st")
	if err != nil || len(out.Shell) != 1 || out.Shell[0].Command != "git status" || out.Text != "Status: "+out.Shell[0].Token {
		t.Fatalf("/st: %+v %v", out, err)
	}
	if _, _, err := f.c.Run(ctx, Params{}, "/nobash"); err == nil || !strings.Contains(err.Error(), "leave out Bash") {
		t.Fatalf("/nobash: %v", err)
	}
	if out, _, err := f.c.Run(ctx, Params{}, "/mine"); err != nil || len(out.Shell) != 1 {
		t.Fatalf("/mine: %+v %v", out, err)
	}
	// Each expansion has its own token.
	a, _, _ := f.c.Run(ctx, Params{}, "/mine")
	b, _, _ := f.c.Run(ctx, Params{}, "/mine")
	if a.Shell[0].Token == b.Shell[0].Token {
		t.Fatal("tokens repeat")
	}
}
