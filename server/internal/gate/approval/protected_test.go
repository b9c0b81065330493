package approval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectedPaths: GoVibe's own configuration, editor and CI files are
// protected; the project memory is not (plain text, like AGENTS.md), and
// a path that only looks like memory once cleaned is judged by where it
// really points.
func TestProtectedPaths(t *testing.T) {
	for rel, want := range map[string]bool{
		".govibe/memory/L2-inventory.md":   false,
		".govibe/memory/sub/notes.md":      false,
		`.govibe\memory\L1-purpose.md`:     false,
		".govibe/memory/../hooks.json":     true,
		".govibe/memory":                   true,
		".govibe/commands/x.md":            true,
		".govibe/skills/s/SKILL.md":        true,
		"./.govibe/settings.json":          true,
		"AGENTS.md":                        false,
		".vscode/settings.json":            true,
		".github/workflows/ci.yml":         true,
		".gitignore":                       true,
		"src/.govibe/memory/x.md":          false,
		"docs/memory/L1-purpose.md":        false,
		"/.govibe/memory/../../.gitignore": true,
	} {
		if got := protected(rel); got != want {
			t.Errorf("protected(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestMemoryThroughALinkStaysProtected: a memory file that is a symbolic
// link, or sits in a linked memory folder, may point at a protected file,
// so it keeps the protected treatment; an ordinary or not yet created
// memory file does not.
func TestMemoryThroughALinkStaysProtected(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".govibe", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	if !memoryInPlace(".govibe/memory/L1-purpose.md", abs(".govibe/memory/L1-purpose.md")) {
		t.Fatal("an ordinary memory file counted as linked")
	}
	if !memoryInPlace(".govibe/memory/new/x.md", abs(".govibe/memory/new/x.md")) {
		t.Fatal("a memory file in a folder not yet created counted as linked")
	}
	if err := os.Symlink(abs(".govibe/hooks.json"), abs(".govibe/memory/L3-roles.md")); err != nil {
		t.Fatal(err)
	}
	if memoryInPlace(".govibe/memory/L3-roles.md", abs(".govibe/memory/L3-roles.md")) {
		t.Fatal("a memory file linked to .govibe/hooks.json is treated as plain memory")
	}
	if err := os.Symlink(abs(".govibe"), abs(".govibe/memory/up")); err != nil {
		t.Fatal(err)
	}
	if memoryInPlace(".govibe/memory/up/hooks.json", abs(".govibe/memory/up/hooks.json")) {
		t.Fatal("a file in a memory folder linked to .govibe is treated as plain memory")
	}
	if !memoryInPlace("src/main.go", abs("src/main.go")) {
		t.Fatal("a file outside the memory is judged by this check")
	}
}

// TestCreatesMemory: only a new file under .govibe/memory/ of a root whose
// memory folder holds no file yet creates the memory; a missing, empty or
// only-subfolders memory counts as absent.
func TestCreatesMemory(t *testing.T) {
	root := t.TempDir()
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	check := func(rel string, isNew, want bool) {
		t.Helper()
		if got := createsMemory(rel, abs(rel), isNew); got != want {
			t.Errorf("createsMemory(%q, new=%v) = %v, want %v", rel, isNew, got, want)
		}
	}
	check(".govibe/memory/L1-purpose.md", true, true) // no .govibe at all
	check(".govibe/memory/notes/x.md", true, true)
	check("AGENTS.md", true, false)
	check("src/.govibe/memory/x.md", true, false)
	if err := os.MkdirAll(abs(".govibe/memory/notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	check(".govibe/memory/L1-purpose.md", true, true) // folders, no file
	if err := os.WriteFile(abs(".govibe/memory/notes/x.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	check(".govibe/memory/L1-purpose.md", true, false)
	check(".govibe/memory/L2-inventory.md", false, false)
}

// TestMemoryNoticeNamesTheFolder: the card's line names the root's memory
// folder whichever level (or subfolder) the first write creates.
func TestMemoryNoticeNamesTheFolder(t *testing.T) {
	root := t.TempDir()
	tr := func(msg string, args ...any) string { return fmt.Sprintf(msg, args...) }
	want := filepath.Join(root, ".govibe", "memory") + string(filepath.Separator)
	for _, rel := range []string{".govibe/memory/L1-purpose.md", ".govibe/memory/notes/deep/x.md"} {
		got := memoryNotice(tr, rel, filepath.Join(root, filepath.FromSlash(rel)))
		if !strings.HasPrefix(got, "This creates the project memory in "+want+": ") {
			t.Errorf("%s: %q", rel, got)
		}
	}
}
