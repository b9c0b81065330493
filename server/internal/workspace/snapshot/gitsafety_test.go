package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUserGitRepositoryIsNeverTouched(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	runGit(t, root, "init", "-q", "-b", "main")
	writeFile(t, root, "tracked.go", "package main\n", 0o644)
	writeFile(t, root, "staged.go", "package staged\n", 0o644)
	runGit(t, root, "add", "tracked.go")
	runGit(t, root, "commit", "-q", "-m", "init")
	runGit(t, root, "tag", "v1")
	runGit(t, root, "add", "staged.go") // leave something in the index
	writeFile(t, root, "tracked.go", "package main // dirty\n", 0o644)
	writeFile(t, root, "untracked.txt", "u", 0o644)
	// git status refreshes the index itself, so it runs before hashing.
	status := runGit(t, root, "status", "--porcelain")
	gitHash := hashTree(t, filepath.Join(root, ".git"))
	start := workspaceState(t, root)

	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	writeFile(t, root, "tracked.go", "package main // agent\n", 0o644)
	os.Remove(filepath.Join(root, "staged.go"))
	writeFile(t, root, "agent.go", "package agent\n", 0o644)
	snap(t, s, "two")
	res, err := s.Restore(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(context.Background(), res.Before.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(context.Background(), s1.ID); err != nil {
		t.Fatal(err)
	}
	// Before the prune, which deletes s1 with the objects only it reached.
	if out := runGit(t, s.Dir(), "--git-dir="+s.Dir(), "ls-tree", "-r", "--name-only", s1.ID); strings.Contains(out, ".git/") {
		t.Fatalf("snapshot contains .git content:\n%s", out)
	}
	if _, err := s.Prune(0, 1); err != nil {
		t.Fatal(err)
	}
	assertState(t, start, workspaceState(t, root))
	if got := hashTree(t, filepath.Join(root, ".git")); got != gitHash {
		t.Fatal("the user's .git changed")
	}
	if got := runGit(t, root, "status", "--porcelain"); got != status {
		t.Fatalf("git status changed:\n%s\nwant:\n%s", got, status)
	}
	if _, _, ok, err := s.FileAt(s1.ID, ".git/HEAD"); ok || err == nil {
		t.Fatal("FileAt should refuse paths inside .git")
	}
}

func TestNestedRepositoryIsSnapshottedAsPlainFiles(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "top.txt", "top", 0o644)
	nested := filepath.Join(root, "vendor", "lib")
	os.MkdirAll(nested, 0o755)
	runGit(t, nested, "init", "-q")
	writeFile(t, nested, "lib.go", "package lib\n", 0o644)
	writeFile(t, nested, ".gitignore", "gen/\n", 0o644)
	writeFile(t, nested, "gen/out.go", "generated", 0o644)
	writeFile(t, nested, ".git/info/exclude", "private.txt\n", 0o644)
	writeFile(t, nested, "private.txt", "private", 0o644)
	runGit(t, nested, "add", "lib.go", ".gitignore")
	runGit(t, nested, "commit", "-q", "-m", "nested")
	nestedGit := hashTree(t, filepath.Join(nested, ".git"))

	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	for p, want := range map[string]bool{
		"vendor/lib/lib.go": true, "vendor/lib/.gitignore": true,
		"vendor/lib/gen/out.go": false, "vendor/lib/private.txt": false,
	} {
		if _, _, ok, _ := s.FileAt(s1.ID, p); ok != want {
			t.Errorf("%s in snapshot = %v, want %v", p, ok, want)
		}
	}
	writeFile(t, nested, "lib.go", "package lib // changed\n", 0o644)
	writeFile(t, nested, "extra.go", "package lib\n", 0o644)
	snap(t, s, "two") // holds extra.go, so the restore may delete it
	if _, err := s.Restore(context.Background(), s1.ID); err != nil {
		t.Fatal(err)
	}
	if readFile(t, nested, "lib.go") != "package lib\n" {
		t.Fatal("nested file not restored")
	}
	if _, err := os.Stat(filepath.Join(nested, "extra.go")); !os.IsNotExist(err) {
		t.Fatal("file created in nested repo not removed")
	}
	if hashTree(t, filepath.Join(nested, ".git")) != nestedGit {
		t.Fatal("nested .git changed")
	}
	if _, err := os.Stat(filepath.Join(nested, ".git", "HEAD")); err != nil {
		t.Fatal("nested .git was moved or renamed")
	}
}
