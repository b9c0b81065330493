package snapshot

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
)

func TestRoundTripAllKindsOfChange(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	bin := make([]byte, 300<<10)
	rand.Read(bin)
	writeFile(t, root, "a.txt", "alpha\n", 0o644)
	writeFile(t, root, "dir/b.go", "package b\n", 0o644)
	writeFile(t, root, "dir/deep/c.txt", "c\n", 0o644)
	writeFile(t, root, "bin.dat", string(bin), 0o644)
	writeFile(t, root, "empty", "", 0o644)
	writeFile(t, root, "crlf.txt", "one\r\ntwo\r\n", 0o644)
	writeFile(t, root, "run.sh", "#!/bin/sh\necho hi\n", 0o644)
	writeFile(t, root, "tool", "#!/bin/sh\n", 0o755)
	writeFile(t, root, "fileToDir", "was a file\n", 0o644)
	writeFile(t, root, "dirToFile/x.txt", "was in a dir\n", 0o644)
	symlink(t, root, "a.txt", "link")
	symlink(t, root, "dangling-target", "dangling")
	s := openTestStore(t, root, Options{})
	start := workspaceState(t, root)

	s1, created := snap(t, s, "first")
	if !created || s1.ChangedFiles != 12 {
		t.Fatalf("first snapshot: created=%v changed=%d, want true 12", created, s1.ChangedFiles)
	}

	// Every kind of change an agent can make.
	writeFile(t, root, "a.txt", "alpha modified\n", 0o644)
	os.Remove(filepath.Join(root, "dir/b.go"))
	os.Rename(filepath.Join(root, "crlf.txt"), filepath.Join(root, "renamed.txt"))
	os.Chmod(filepath.Join(root, "run.sh"), 0o755)
	os.Chmod(filepath.Join(root, "tool"), 0o644)
	writeFile(t, root, "new/created.txt", "new\n", 0o644)
	symlink(t, root, "dir/deep/c.txt", "link")
	bin[1000] ^= 0xff
	writeFile(t, root, "bin.dat", string(bin), 0o644)
	writeFile(t, root, "empty", "not empty now", 0o644)
	os.Remove(filepath.Join(root, "fileToDir"))
	writeFile(t, root, "fileToDir/inner.txt", "now a dir\n", 0o644)
	os.RemoveAll(filepath.Join(root, "dirToFile"))
	writeFile(t, root, "dirToFile", "now a file\n", 0o644)
	changed := workspaceState(t, root)

	s2, created := snap(t, s, "second")
	if !created {
		t.Fatal("second snapshot not created")
	}

	diff, err := s.Diff(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]ChangeKind{
		"a.txt": Modified, "dir/b.go": Recreated, "crlf.txt": Recreated, "renamed.txt": Deleted,
		"run.sh": Modified, "tool": Modified, "new/created.txt": Deleted, "link": Modified,
		"bin.dat": Modified, "empty": Modified, "fileToDir": Recreated, "fileToDir/inner.txt": Deleted,
		"dirToFile": Deleted, "dirToFile/x.txt": Recreated,
	}
	got := map[string]ChangeKind{}
	for _, c := range diff {
		got[c.Path] = c.Kind
	}
	if len(got) != len(want) {
		t.Fatalf("Diff = %v, want %v", got, want)
	}
	for p, k := range want {
		if got[p] != k {
			t.Errorf("Diff[%s] = %q, want %q", p, got[p], k)
		}
	}
	if s2.ChangedFiles != len(want) {
		t.Errorf("second snapshot ChangedFiles = %d, want %d", s2.ChangedFiles, len(want))
	}

	res, err := s.Restore(context.Background(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	assertState(t, start, workspaceState(t, root))
	if len(res.Changed) != len(want) || len(res.Kept) != 0 {
		t.Fatalf("Restore changed %d kept %d, want %d and 0: %+v", len(res.Changed), len(res.Kept), len(want), res)
	}
	if res.Before.ID != s2.ID {
		t.Errorf("safety snapshot should be the unchanged latest snapshot %s, got %s", s2.ID, res.Before.ID)
	}
	if fi, err := os.Lstat(filepath.Join(root, "new")); err == nil {
		t.Errorf("directory emptied by restore was left behind: %v", fi.Mode())
	}

	// Restoring the restore's safety snapshot undoes it exactly.
	undo, err := s.Restore(context.Background(), res.Before.ID)
	if err != nil {
		t.Fatal(err)
	}
	assertState(t, changed, workspaceState(t, root))
	if undo.Before.Reason != "before restore" || !undo.Before.Time.After(s2.Time) {
		t.Errorf("undo's safety snapshot = %+v, want a fresh 'before restore' snapshot", undo.Before)
	}
	// And back again to the start.
	if _, err := s.Restore(context.Background(), undo.Before.ID); err != nil {
		t.Fatal(err)
	}
	assertState(t, start, workspaceState(t, root))
	fsck(t, s)
}

func TestFileAtShowsSnapshotContent(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "x/y.txt", "old\r\n", 0o755)
	symlink(t, root, "x/y.txt", "l")
	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	writeFile(t, root, "x/y.txt", "new", 0o644)

	data, mode, ok, err := s.FileAt(s1.ID[:8], "x/y.txt")
	if err != nil || !ok || string(data) != "old\r\n" || mode != 0o755 {
		t.Fatalf("FileAt = %q %v %v %v", data, mode, ok, err)
	}
	data, mode, ok, err = s.FileAt(s1.ID, "l")
	if err != nil || !ok || string(data) != "x/y.txt" || mode&os.ModeSymlink == 0 {
		t.Fatalf("FileAt(symlink) = %q %v %v %v", data, mode, ok, err)
	}
	for _, p := range []string{"missing.txt", "x"} {
		if _, _, ok, err := s.FileAt(s1.ID, p); ok || err != nil {
			t.Errorf("FileAt(%s) = exists %v err %v, want not existing", p, ok, err)
		}
	}
}

func TestRestoreFileTouchesOnlyThatPath(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "keep.txt", "k1", 0o644)
	writeFile(t, root, "src/a.txt", "a1", 0o644)
	writeFile(t, root, "src/b.txt", "b1", 0o644)
	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	writeFile(t, root, "keep.txt", "k2", 0o644)
	writeFile(t, root, "src/a.txt", "a2", 0o644)
	os.Remove(filepath.Join(root, "src/b.txt"))
	writeFile(t, root, "src/c.txt", "c2", 0o644)
	snap(t, s, "two") // holds src/c.txt, so restoring src/ may delete it

	res, err := s.RestoreFile(context.Background(), s1.ID, "src/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) != 1 || res.Changed[0] != (Change{Path: "src/a.txt", Kind: Modified, Mode: 0o644}) {
		t.Fatalf("RestoreFile changed %+v", res.Changed)
	}
	if readFile(t, root, "src/a.txt") != "a1" || readFile(t, root, "keep.txt") != "k2" {
		t.Fatal("RestoreFile restored the wrong files")
	}
	// A directory restores everything below it.
	res, err = s.RestoreFile(context.Background(), s1.ID, "src/")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) != 2 || readFile(t, root, "src/b.txt") != "b1" {
		t.Fatalf("RestoreFile(dir) changed %+v", res.Changed)
	}
	if _, err := os.Stat(filepath.Join(root, "src/c.txt")); !os.IsNotExist(err) {
		t.Fatal("file created after the snapshot survived a directory restore")
	}
	if readFile(t, root, "keep.txt") != "k2" {
		t.Fatal("RestoreFile(dir) touched a file outside the directory")
	}
}

func TestNoChangeMakesNoSnapshot(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	s := openTestStore(t, root, Options{})
	s1, created := snap(t, s, "one")
	if !created {
		t.Fatal("first snapshot not created")
	}
	// Touching and chmod-ing without content or exec change is no change.
	os.Chtimes(filepath.Join(root, "a.txt"), s1.Time, s1.Time)
	os.Chmod(filepath.Join(root, "a.txt"), 0o600)
	s2, created := snap(t, s, "two")
	if created || s2.ID != s1.ID {
		t.Fatalf("unchanged workspace made a new snapshot: %+v", s2)
	}
	list, err := s.List("")
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %d snapshots, err %v; want 1", len(list), err)
	}
	writeFile(t, root, "a.txt", "b", 0o644)
	s3, created := snap(t, s, "three")
	if !created || s3.ID == s1.ID || s3.ChangedFiles != 1 {
		t.Fatalf("changed workspace: created=%v changed=%d", created, s3.ChangedFiles)
	}
}

func TestEmptyAndNonGitWorkspace(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	s := openTestStore(t, root, Options{})
	empty, created := snap(t, s, "empty")
	if !created || empty.ChangedFiles != 0 {
		t.Fatalf("empty workspace snapshot: %+v created=%v", empty, created)
	}
	writeFile(t, root, "later.txt", "x", 0o644)
	res, err := s.Restore(context.Background(), empty.ID)
	if err != nil {
		t.Fatal(err)
	}
	// No snapshot ever held later.txt: it is the user's, kept and reported.
	if len(res.Changed) != 0 || len(res.Kept) != 1 || res.Kept[0].Path != "later.txt" || readFile(t, root, "later.txt") != "x" {
		t.Fatalf("restore to empty: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); !os.IsNotExist(err) {
		t.Fatal("a .git appeared in a non-git workspace")
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("workspace after restore: %v, want only later.txt", entries)
	}
	fsck(t, s)
}

func TestListFiltersBySessionNewestFirst(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	s := openTestStore(t, root, Options{})
	ctx := context.Background()
	for i, sess := range []string{"A", "B", "A"} {
		writeFile(t, root, "f.txt", string(rune('a'+i)), 0o644)
		if _, _, err := s.Snapshot(ctx, Meta{SessionID: sess, Turn: i, Message: "msg line\nsecond line", Reason: "r"}); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := s.List("")
	a, _ := s.List("A")
	if len(all) != 3 || len(a) != 2 || a[0].Turn != 2 || a[1].Turn != 0 {
		t.Fatalf("List: all=%d A=%+v", len(all), a)
	}
	if a[0].Message != "msg line" || a[0].Reason != "r" || a[0].SessionID != "A" {
		t.Fatalf("metadata not kept: %+v", a[0])
	}
	// A second Store on the same state sees the same snapshots (metadata
	// lives in the shadow repository, not in memory).
	s2, err := Open(filepath.Dir(filepath.Dir(s.Dir())), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	again, _ := s2.List("")
	if len(again) != 3 || again[0].ID != all[0].ID || !again[0].Time.Equal(all[0].Time) {
		t.Fatalf("reopened List differs: %+v vs %+v", again, all)
	}
}

func TestIdenticalContentIsStoredOnce(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	content := make([]byte, 256<<10)
	rand.Read(content) // incompressible, so duplicates would show in size
	for i := 0; i < 8; i++ {
		writeFile(t, root, filepath.Join("copies", string(rune('a'+i))+".bin"), string(content), 0o644)
	}
	s := openTestStore(t, root, Options{})
	snap(t, s, "one")
	size, err := s.Size()
	if err != nil {
		t.Fatal(err)
	}
	if size > int64(len(content))*3/2 {
		t.Fatalf("store is %d bytes for 8 copies of %d bytes: content not deduplicated", size, len(content))
	}
	// A second snapshot with one more copy adds no blob.
	writeFile(t, root, "copies/z.bin", string(content), 0o644)
	snap(t, s, "two")
	size2, _ := s.Size()
	if size2-size > 4096 {
		t.Fatalf("another copy grew the store by %d bytes", size2-size)
	}
}
