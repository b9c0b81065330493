//go:build unix

package mentions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestMentionsOfSpecialFiles: @./pipe names a FIFO in the workspace and
// @#Symbol searches a tree holding one (issue 31). The mention is an
// error naming the kind, the symbol is found in the regular file, and
// nothing waits for a writer to the FIFO.
func TestMentionsOfSpecialFiles(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc Found() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "b.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker()}
	done := make(chan []Attachment, 1)
	go func() { done <- Expand(context.Background(), env, "see @./pipe and @#Found", Sources{}) }()
	var atts []Attachment
	select {
	case atts = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Expand did not return within 10 s: it blocked on a FIFO")
	}
	if len(atts) != 2 {
		t.Fatalf("attachments: %+v", atts)
	}
	if !strings.Contains(atts[0].Error, "named pipe (FIFO)") {
		t.Errorf("@./pipe: want an error naming the FIFO, got %+v", atts[0])
	}
	if atts[1].Error != "" || !strings.Contains(atts[1].Content, "func Found()") {
		t.Errorf("@#Found: %+v", atts[1])
	}
}
