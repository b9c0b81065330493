package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIgnoreRulesSkipListAndSizeCap(t *testing.T) {
	home := isolateGitEnv(t)
	root := t.TempDir()
	runGit(t, root, "init", "-q")
	writeFile(t, root, ".git/info/exclude", "excluded-by-info.txt\n", 0o644)
	writeFile(t, home, ".gitconfig", "[core]\n\texcludesFile = ~/my-global-ignore\n", 0o644)
	writeFile(t, home, "my-global-ignore", "*.tmp\n", 0o644)
	writeFile(t, root, ".gitignore", "*.log\r\nsecret/\n# comment\n!keep.log\n", 0o644)
	writeFile(t, root, "sub/.gitignore", "local.txt\n", 0o644)
	files := map[string]bool{ // path -> expected in snapshot
		"main.go":              true,
		"keep.log":             true,
		"debug.log":            false,
		"secret/key.pem":       false,
		"sub/local.txt":        false,
		"local.txt":            true, // sub/.gitignore only governs sub/
		"sub/code.go":          true,
		"x.tmp":                false,
		"excluded-by-info.txt": false,
		"node_modules/m/i.js":  false,
		"web/dist/app.js":      false,
		"py/__pycache__/a.pyc": false,
		"big.bin":              false,
	}
	for p := range files {
		content := "content of " + p
		if p == "big.bin" {
			content = strings.Repeat("x", 2048)
		}
		writeFile(t, root, p, content, 0o644)
	}
	s := openTestStore(t, root, Options{MaxFileSize: 1024})
	info, _ := snap(t, s, "one")
	for p, want := range files {
		_, _, ok, err := s.FileAt(info.ID, p)
		if err != nil || ok != want {
			t.Errorf("%s in snapshot = %v (err %v), want %v", p, ok, err, want)
		}
	}
	wantSkipped := map[string]string{
		"node_modules/": SkipListed, "web/dist/": SkipListed, "py/__pycache__/": SkipListed, "big.bin": SkipTooLarge,
	}
	if info.SkippedCount != len(wantSkipped) || len(info.Skipped) != len(wantSkipped) {
		t.Fatalf("Skipped = %+v, want %v", info.Skipped, wantSkipped)
	}
	for _, sk := range info.Skipped {
		if wantSkipped[sk.Path] != sk.Reason {
			t.Errorf("unexpected skip %+v", sk)
		}
	}
	listed, _ := s.List("")
	if len(listed[0].Skipped) != len(wantSkipped) {
		t.Errorf("List lost the skipped paths: %+v", listed[0].Skipped)
	}
}

func TestXDGGlobalIgnore(t *testing.T) {
	home := isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, home, ".config/git/ignore", "*.swp\n", 0o644)
	writeFile(t, root, "a.go", "a", 0o644)
	writeFile(t, root, "a.go.swp", "swap", 0o644)
	s := openTestStore(t, root, Options{})
	info, _ := snap(t, s, "one")
	if _, _, ok, _ := s.FileAt(info.ID, "a.go.swp"); ok {
		t.Fatal("file matched by $XDG_CONFIG_HOME/git/ignore was snapshotted")
	}
	if _, _, ok, _ := s.FileAt(info.ID, "a.go"); !ok {
		t.Fatal("a.go missing")
	}
}

// Restore must never delete or overwrite what it cannot bring back.
func TestRestoreNeverDeletesIgnoredOrSkippedFiles(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, ".gitignore", "*.log\nblocker\n", 0o644)
	writeFile(t, root, "src/main.go", "v1", 0o644)
	writeFile(t, root, "data.txt", "small", 0o644)
	writeFile(t, root, "blocker/inner.txt", "tracked then", 0o644)
	s := openTestStore(t, root, Options{MaxFileSize: 1024, SkipDirs: []string{"node_modules"}})
	s1, _ := snap(t, s, "one")
	if _, _, ok, _ := s.FileAt(s1.ID, "blocker/inner.txt"); ok {
		t.Fatal("ignored directory was snapshotted")
	}

	// After the snapshot: ignored, skip-listed and too-large files appear;
	// a tracked file grows past the cap; a tracked file is created.
	writeFile(t, root, "app.log", "ignored log", 0o644)
	writeFile(t, root, "src/debug.log", "nested ignored", 0o644)
	writeFile(t, root, "node_modules/pkg/index.js", "dependency", 0o644)
	writeFile(t, root, "huge.bin", strings.Repeat("h", 4096), 0o644)
	writeFile(t, root, "data.txt", strings.Repeat("d", 4096), 0o644)
	writeFile(t, root, "src/new.go", "agent wrote this", 0o644)
	snap(t, s, "after the agent's turn") // GoVibe saw src/new.go: a restore may delete it
	// An ignored file where the snapshot had... nothing; and the snapshot's
	// file now hidden behind a rule change.
	before := workspaceState(t, root)

	diff, err := s.Diff(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Restore(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	after := workspaceState(t, root)
	for _, p := range []string{"app.log", "src/debug.log", "node_modules/pkg/index.js", "huge.bin", "blocker/inner.txt"} {
		if after[p] != before[p] {
			t.Errorf("restore touched untracked %s", p)
		}
	}
	if _, ok := after["src/new.go"]; ok {
		t.Error("file created after the snapshot was not deleted")
	}
	// data.txt grew past the cap, so the safety snapshot could not hold it:
	// restore must keep it rather than lose the new content.
	if after["data.txt"] != before["data.txt"] {
		t.Error("restore overwrote a file it could not snapshot first")
	}
	kept := map[string]bool{}
	for _, c := range res.Kept {
		kept[c.Path] = true
	}
	if !kept["data.txt"] || len(res.Changed) != 1 || res.Changed[0].Path != "src/new.go" {
		t.Fatalf("Restore = changed %+v kept %+v", res.Changed, res.Kept)
	}
	if len(diff) != 2 {
		t.Fatalf("Diff should predict the restore: %+v", diff)
	}
	for _, c := range diff {
		if (c.Path == "data.txt" && c.Kind != Kept) || (c.Path == "src/new.go" && c.Kind != Deleted) {
			t.Errorf("Diff: %+v", c)
		}
	}
}

func TestRestoreKeepsIgnoredFileBlockingAPath(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "cfg/settings.json", "{}", 0o644)
	writeFile(t, root, "notes.txt", "n", 0o644)
	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	// The user now ignores "cfg" and "notes.txt" and puts their own files there.
	os.RemoveAll(filepath.Join(root, "cfg"))
	writeFile(t, root, ".gitignore", "cfg\nnotes.txt\n", 0o644)
	writeFile(t, root, "cfg", "a file named cfg", 0o644)
	writeFile(t, root, "notes.txt", "private notes", 0o644)
	snap(t, s, "two") // holds .gitignore, so the restore may delete it
	res, err := s.Restore(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, root, "cfg") != "a file named cfg" || readFile(t, root, "notes.txt") != "private notes" {
		t.Fatal("restore overwrote ignored files")
	}
	if len(res.Kept) != 2 {
		t.Fatalf("Kept = %+v", res.Kept)
	}
	if _, err := os.Stat(filepath.Join(root, ".gitignore")); !os.IsNotExist(err) {
		t.Fatal(".gitignore created after the snapshot should be deleted")
	}
}

func TestStateDirInsideWorkspaceIsNotSnapshotted(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	s, err := Open(filepath.Join(root, ".govibe"), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, _ := snap(t, s, "one")
	if info.ChangedFiles != 1 {
		t.Fatalf("snapshot holds %d files, want only a.txt", info.ChangedFiles)
	}
	writeFile(t, root, "b.txt", "b", 0o644)
	if _, err := s.Restore(context.Background(), info.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); err != nil {
		t.Fatalf("restore damaged the store inside the workspace: %v", err)
	}
}
