package contextfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func names(fs []File) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rel)
	}
	return strings.Join(out, ",")
}

func TestLoadConventions(t *testing.T) {
	root := t.TempDir()
	write(t, root, "AGENTS.md", "Use tabs.")
	write(t, root, "CLAUDE.md", "Run make test.")
	write(t, root, "CLAUDE.local.md", "My own rules.")
	write(t, root, "GEMINI.md", "Gemini rules.")
	write(t, root, ".github/copilot-instructions.md", "Copilot rules.")
	write(t, root, ".github/instructions/go.instructions.md", "---\napplyTo: \"**/*.go\"\n---\nGo style.\n")
	write(t, root, ".github/instructions/bad.instructions.md", "---\napplyTo: [\n---\nx\n")
	write(t, root, "docs/TEAM.md", "Team notes.")
	files, problems := Load([]string{root}, []string{"docs/TEAM.md", "../escape.md", "/etc/passwd"})
	if names(files) != "AGENTS.md,CLAUDE.md,CLAUDE.local.md,GEMINI.md,.github/copilot-instructions.md,docs/TEAM.md,.github/instructions/go.instructions.md" {
		t.Fatalf("loaded %s", names(files))
	}
	if len(problems) != 3 || !strings.Contains(problems[2].Error(), "bad.instructions.md") || !strings.Contains(problems[2].Error(), "line 2") {
		t.Fatalf("malformed instructions file reported with its line: %v", problems)
	}
	for i, name := range []string{"../escape.md", "/etc/passwd"} {
		if !strings.Contains(problems[i].Error(), `govibe.contextFiles: "`+name+`" is outside the workspace`) {
			t.Fatalf("contextFiles entry %s not reported: %v", name, problems[i])
		}
	}
	goFile := files[len(files)-1]
	if strings.Join(goFile.ApplyTo, ",") != "**/*.go" || goFile.Content != "Go style." {
		t.Fatalf("instructions file: %+v", goFile)
	}
	if got := names(Applicable(files, []string{"README.md"})); strings.Contains(got, "go.instructions") {
		t.Fatalf("go instructions attached without Go files in play: %s", got)
	}
	if got := names(Applicable(files, []string{"cmd/main.go"})); !strings.Contains(got, "go.instructions") {
		t.Fatalf("go instructions not attached with a Go file in play: %s", got)
	}
	out := Render(files, false)
	if !strings.HasPrefix(out, "<context_files>") || !strings.Contains(out, `<file path="AGENTS.md">`+"\nUse tabs.\n</file>") {
		t.Fatalf("render: %s", out)
	}
}

func TestCapsAndLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, root, "AGENTS.md", strings.Repeat("a", MaxFileBytes+100))
	write(t, outside, "secret.md", "secret")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "CLAUDE.md"))
	files, problems := Load([]string{root}, nil)
	if len(files) != 1 || !files[0].Truncated || len(files[0].Content) != MaxFileBytes {
		t.Fatalf("cap: %d files", len(files))
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "outside the workspace") {
		t.Fatalf("an escaping link is reported: %v", problems)
	}
	if out := Render(files, false); !strings.Contains(out, "cut at 32 KB") {
		t.Fatal("the truncation is not said")
	}
}

func TestForTouchedAndChanges(t *testing.T) {
	root := t.TempDir()
	write(t, root, "AGENTS.md", "root")
	write(t, root, "svc/AGENTS.md", "svc")
	write(t, root, "svc/api/AGENTS.md", "api")
	files, _ := ForTouched([]string{root}, []string{filepath.Join(root, "svc/api/h.go"), filepath.Join(root, "svc/x.go"), "/elsewhere/y.go"})
	if names(files) != "svc/AGENTS.md,svc/api/AGENTS.md" {
		t.Fatalf("sub-folder files: %s", names(files))
	}
	before, _ := Load([]string{root}, nil)
	write(t, root, "AGENTS.md", "root v2")
	write(t, root, "GEMINI.md", "new")
	after, _ := Load([]string{root}, nil)
	added, changed, removed := Changes(before, after)
	if strings.Join(added, ",") != "GEMINI.md" || strings.Join(changed, ",") != "AGENTS.md" || len(removed) != 0 {
		t.Fatalf("changes: %v %v %v", added, changed, removed)
	}
	os.Remove(filepath.Join(root, "GEMINI.md"))
	final, _ := Load([]string{root}, nil)
	if _, _, removed = Changes(after, final); strings.Join(removed, ",") != "GEMINI.md" {
		t.Fatalf("removed: %v", removed)
	}
}

// TestMemoryPointer: one line naming the levels present, a hash that
// follows which levels exist and not their contents, nothing without
// memory, and a symlinked level is not counted.
func TestMemoryPointer(t *testing.T) {
	root := t.TempDir()
	if _, ok := MemoryPointer(root); ok {
		t.Fatal("a pointer without memory")
	}
	dir := filepath.Join(root, ".govibe", "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "L1-purpose.md")); err != nil {
		t.Fatal(err)
	}
	if _, ok := MemoryPointer(root); ok {
		t.Fatal("a symlinked level counted")
	}
	if err := os.WriteFile(filepath.Join(dir, "L2-inventory.md"), []byte("- a.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, ok := MemoryPointer(root)
	if !ok || f.Rel != ".govibe/memory/" || strings.Contains(f.Content, "\n") || !strings.Contains(f.Content, "(L2-inventory.md)") {
		t.Fatalf("pointer %+v", f)
	}
	if err := os.WriteFile(filepath.Join(dir, "L2-inventory.md"), []byte("- a.go\n- b.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, _ := MemoryPointer(root); g.Hash != f.Hash {
		t.Fatal("editing a level changed the pointer")
	}
	files, _ := Load([]string{root}, nil)
	if len(files) != 1 || files[0].Rel != ".govibe/memory/" {
		t.Fatalf("Load: %+v", files)
	}
}
