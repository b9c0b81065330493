package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// workspaceFiles is the small project every test opens: a Go module with one
// function whose test fails, so scenarios can ask the agent to find and fix it.
var workspaceFiles = map[string]string{
	"README.md": "# calc\n\nA tiny calculator used by the GoVibe end-to-end tests.\n",
	"go.mod":    "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `package calc

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a - b
}
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Fatalf("Add(2, 3) = %d, want 5", got)
	}
}
`,
}

// newWorkspace creates a git repository with workspaceFiles committed, in a
// directory removed when the test ends.
func newWorkspace(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "calc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range workspaceFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		// The machine's git identity and hooks must not leak into the fixture.
		cmd.Env = append(os.Environ(),
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
			"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	return dir
}

// secondFolderFiles is the second folder of a multi-root workspace.
var secondFolderFiles = map[string]string{
	"notes.md": "# notes\n\nNothing here yet.\n",
}

// newSecondFolder creates the second folder of a multi-root workspace; it
// is deliberately not a git repository.
func newSecondFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "notes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range secondFolderFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeCodeWorkspace writes a .code-workspace file naming folders, outside
// all of them, and returns its path.
func writeCodeWorkspace(t *testing.T, folders ...string) string {
	t.Helper()
	type folder struct {
		Path string `json:"path"`
	}
	var doc struct {
		Folders []folder `json:"folders"`
	}
	for _, f := range folders {
		doc.Folders = append(doc.Folders, folder{Path: f})
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "two.code-workspace")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
