package skills

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An old storage slot's workspace skills join the workspace's list: added
// once, the workspace's own kept first, nothing from a slot without the
// file, and a malformed file reported without touching the list.
func TestAdoptWorkspaceSkills(t *testing.T) {
	state, old, empty := t.TempDir(), t.TempDir(), t.TempDir()
	m := NewManager(ManagerOptions{StateDir: state})
	write := func(dir string, v any) {
		data, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, "active-skills.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(state, []string{"reviewer"})
	write(old, []string{"tester", "reviewer"})
	for range 2 {
		if err := m.AdoptWorkspaceSkills(old); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.AdoptWorkspaceSkills(empty); err != nil {
		t.Fatal(err)
	}
	if got := m.workspaceSkills(); !slices.Equal(got, []string{"reviewer", "tester"}) {
		t.Fatalf("workspace skills = %v", got)
	}
	if err := os.WriteFile(filepath.Join(empty, "active-skills.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.AdoptWorkspaceSkills(empty); err == nil {
		t.Fatal("a malformed file was adopted silently")
	}
	if got := m.workspaceSkills(); !slices.Equal(got, []string{"reviewer", "tester"}) {
		t.Fatalf("workspace skills after a malformed slot = %v", got)
	}
}
