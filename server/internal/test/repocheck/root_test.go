package repocheck

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// repoRoot is the top of the git work tree holding this package, or a skip
// when there is none (a source archive has no history to keep clean).
func repoRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the repository checks need it")
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not inside a git work tree (%v): the repository checks need one", err)
	}
	return strings.TrimSpace(string(out))
}

// trackedFiles are the paths git tracks under root, slash-separated.
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v: %s", err, stderr.String())
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("git ls-files listed no files")
	}
	return files
}
