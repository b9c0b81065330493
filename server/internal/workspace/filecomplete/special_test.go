//go:build unix

package filecomplete

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestSpecialFilesAreNotOffered: a FIFO (and a FIFO standing in for a
// folder's .gitignore) in the tree is neither offered nor opened; the walk
// answers within its budget (issue 31).
func TestSpecialFilesAreNotOffered(t *testing.T) {
	root := t.TempDir()
	write(t, root, "src/pipeline.go")
	for _, p := range []string{"pipe.go", "src/.gitignore"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, partial := Complete([]string{root}, "@pipe", Options{})
	if partial {
		t.Fatalf("the walk was cut short: %+v", got)
	}
	if len(got) == 0 || got[0].Path != "src/pipeline.go" {
		t.Fatalf("got %+v, want src/pipeline.go first", got)
	}
	for _, m := range got {
		if m.Path == "pipe.go" {
			t.Fatalf("the FIFO is offered: %+v", got)
		}
	}
}
