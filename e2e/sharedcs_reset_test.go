package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// resetHome puts HOME back to what it held before the shared code-server's
// first window: what a test added goes (GoVibe's user-level files, a
// read-only module cache), what was there stays, code-server's own data
// dir stays even when it appeared later, and the git identity is written
// again.
func TestResetHomeRemovesWhatTestsAdded(t *testing.T) {
	home := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeGitconfig(home); err != nil {
		t.Fatal(err)
	}
	write(".config/code-server/config.yaml", "auth: none\n")
	keep := listTree(home)

	write(".config/govibe/allow-rules.json", "{}")
	write(".local/share/code-server/heartbeat", "")
	write("x/keep.txt", "victim")
	write("go/pkg/mod/m@v1/a.go", "package m")
	if err := os.Chmod(filepath.Join(home, "go", "pkg", "mod", "m@v1"), 0o555); err != nil {
		t.Fatal(err)
	}
	write(".gitconfig", "[user]\n\tname = Someone Else\n")

	removed, err := resetHome(home, keep)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(removed)
	if want := []string{filepath.Join(".config", "govibe"), "go", "x"}; !reflect.DeepEqual(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, rel := range []string{".config/code-server/config.yaml", ".local/share/code-server/heartbeat"} {
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s was removed: %v", rel, err)
		}
	}
	for _, rel := range []string{".config/govibe", "x", "go"} {
		if _, err := os.Stat(filepath.Join(home, rel)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", rel, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(home, ".gitconfig"))
	if want := "[user]\n\tname = GoVibe E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n"; string(got) != want {
		t.Errorf(".gitconfig = %q, want the harness's identity", got)
	}
}
