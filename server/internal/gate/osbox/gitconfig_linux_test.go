package osbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfiguredProgramsOfReadOnlyGitRunConfined covers the class the
// shell analysis no longer guesses at (shellcheck's git.go): read-only git
// commands that run a program named in the repository's configuration, an
// external diff (git diff --ext-diff, diff.external) and a textconv filter
// (git log -p --textconv, .gitattributes). The analysis classes them
// read-only; the planted program runs, and the sandbox keeps its payload
// from writing outside the workspace or into .git, reading a masked
// secret or reaching the network.
func TestConfiguredProgramsOfReadOnlyGitRunConfined(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	for _, m := range mechanisms(t) {
		for _, a := range []Access{ReadOnly, WorkspaceWrite} {
			if m == Landlock && a == WorkspaceWrite {
				continue // documented limit: the fallback's writable root is writable whole
			}
			t.Run(string(m)+"/"+a.String(), func(t *testing.T) {
				f := newFixture(t)
				evil := filepath.Join(f.root, "tools", "diff.sh")
				must(t, os.MkdirAll(filepath.Dir(evil), 0o755))
				must(t, os.WriteFile(evil, []byte("#!/bin/bash\n"+plantedPayload(f)+"\necho PLANTED-RAN\ncat \"${2:-$1}\" 2>/dev/null\nexit 0\n"), 0o755))
				gitIn := func(args ...string) {
					t.Helper()
					cmd := exec.Command("git", append([]string{"-C", f.root, "-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v %s", args, err, out)
					}
				}
				gitIn("init", "-q")
				write(t, filepath.Join(f.root, "a.txt"), "one\n")
				gitIn("add", "a.txt")
				gitIn("commit", "-qm", "one")
				write(t, filepath.Join(f.root, "a.txt"), "two\n")
				gitIn("commit", "-qam", "two")
				write(t, filepath.Join(f.root, "a.txt"), "three\n")
				// Planted after the commits, as a cloned repository would
				// carry it: the sandboxed commands are the first to read it.
				write(t, filepath.Join(f.root, ".gitattributes"), "*.txt diff=planted\n")
				cfg, _ := os.ReadFile(filepath.Join(f.root, ".git", "config"))
				must(t, os.WriteFile(filepath.Join(f.root, ".git", "config"),
					append(cfg, []byte("[diff]\n\texternal = "+evil+"\n[diff \"planted\"]\n\ttextconv = "+evil+"\n")...), 0o644))
				for _, s := range []string{"git diff --ext-diff", "git log -p --textconv -1"} {
					// The planted program does run (else this test proves nothing).
					if out, _ := run(t, m, f.policy(a), f.root, s); !strings.Contains(out, "PLANTED-RAN") {
						t.Errorf("%s: the planted program did not run: %q", s, out)
					}
				}
				checkPayloadFailed(t, f)
			})
		}
	}
}
