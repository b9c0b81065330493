package customcmd

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Stamp changes exactly when what Load would read changes: a file added,
// edited (same size, new time), renamed or removed, or a folder created.
func TestStampChangesWithTheCommandFolders(t *testing.T) {
	root := t.TempDir()
	dirs := []Dir{{Path: filepath.Join(root, ".govibe", "commands"), Source: "project"}}
	s0 := Stamp(dirs)
	if s0 != Stamp(dirs) {
		t.Fatal("the stamp of an unchanged (missing) folder changed")
	}
	if err := os.MkdirAll(dirs[0].Path, 0o755); err != nil {
		t.Fatal(err)
	}
	s1 := Stamp(dirs)
	if s1 == s0 {
		t.Fatal("creating the folder left the stamp unchanged")
	}
	f := filepath.Join(dirs[0].Path, "explain.md")
	if err := os.WriteFile(f, []byte("Explain $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := Stamp(dirs)
	if s2 == s1 {
		t.Fatal("adding a command file left the stamp unchanged")
	}
	if s2 != Stamp(dirs) {
		t.Fatal("the stamp is not stable while nothing changes")
	}
	// Same size, new content: only the modification time tells.
	if err := os.WriteFile(f, []byte("Describe $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(f, later, later); err != nil {
		t.Fatal(err)
	}
	s3 := Stamp(dirs)
	if s3 == s2 {
		t.Fatal("editing a command file left the stamp unchanged")
	}
	g := filepath.Join(dirs[0].Path, "describe.md")
	if err := os.Rename(f, g); err != nil {
		t.Fatal(err)
	}
	s4 := Stamp(dirs)
	if s4 == s3 {
		t.Fatal("renaming a command file left the stamp unchanged")
	}
	if err := os.Remove(g); err != nil {
		t.Fatal(err)
	}
	if Stamp(dirs) != s1 {
		t.Fatal("removing the only file did not bring back the empty folder's stamp")
	}
}
