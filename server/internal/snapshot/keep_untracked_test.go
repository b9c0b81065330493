package snapshot

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// With KeepUntracked, a restore removes a file created after the snapshot
// only when the user's git tracks it; an untracked one is the user's work
// in progress and stays.
func TestRestoreKeepsFilesUntrackedByTheUsersGit(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	st, err := Open(t.TempDir(), root, Options{KeepUntracked: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	before, _, err := st.Snapshot(ctx, Meta{Message: "before"})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "untracked.txt"), []byte("mine\n"), 0o644)
	os.WriteFile(filepath.Join(root, "staged.txt"), []byte("added\n"), 0o644)
	git("add", "staged.txt")
	changes, err := st.Diff(ctx, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]ChangeKind{}
	for _, c := range changes {
		kinds[c.Path] = c.Kind
	}
	if kinds["staged.txt"] != Deleted || kinds["untracked.txt"] != Kept {
		t.Fatalf("diff %+v", changes)
	}
	if _, err := st.Restore(ctx, before.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "staged.txt")); !os.IsNotExist(err) {
		t.Fatal("a tracked file created after the snapshot survived the restore")
	}
	if b, err := os.ReadFile(filepath.Join(root, "untracked.txt")); err != nil || string(b) != "mine\n" {
		t.Fatalf("the untracked file was touched: %q %v", b, err)
	}
}
