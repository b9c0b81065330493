package fsatomic

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// noLitter fails if dir holds anything but the names given.
func noLitter(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("directory holds %v, want %v", got, want)
	}
}

func TestWriteFileCreatesWithExactMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := WriteFile(p, []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v err %v", fi.Mode(), err)
	}
	if err := WriteFile(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ = os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("content %q mode %v", b, fi.Mode())
	}
	noLitter(t, dir, "f")
}

func TestReplaceFileKeepsModeAndWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	os.WriteFile(target, []byte("old"), 0o600)
	os.Chmod(target, 0o751)
	if err := os.Symlink("target", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := ReplaceFile(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	b, _ := os.ReadFile(target)
	fi, _ := os.Stat(target)
	if string(b) != "new" || fi.Mode().Perm() != 0o751 {
		t.Fatalf("target %q mode %v", b, fi.Mode())
	}
	// A new file gets perm, or 0644 when perm is zero.
	fresh := filepath.Join(dir, "fresh")
	if err := ReplaceFile(fresh, []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v", fi.Mode())
	}
	noLitter(t, dir, "fresh", "link", "target")
}

func TestBadInputsFailClearlyAndLoseNothing(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "keep"), []byte("keep"), 0o644)
	cases := []struct {
		name string
		path string
		perm fs.FileMode
		want string
	}{
		{"empty path", "", 0o644, "empty path"},
		{"directory", sub, 0o644, "is a directory"},
		{"missing parent", filepath.Join(dir, "nope", "f"), 0o644, "temporary file"},
		{"non-permission bits", filepath.Join(dir, "f"), fs.ModeSetuid | 0o755, "other than permissions"},
	}
	for _, c := range cases {
		for name, fn := range map[string]func(string, []byte, fs.FileMode) error{"WriteFile": WriteFile, "ReplaceFile": ReplaceFile} {
			err := fn(c.path, []byte("data"), c.perm)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: err %v, want it to mention %q", name, c.name, err, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(sub, "keep")); string(b) != "keep" {
		t.Fatal("a failed write touched the directory's content")
	}
	noLitter(t, dir, "sub")
	noLitter(t, sub, "keep")
}

func TestFailedRenameLeavesOldFileAndNoTemp(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a read-only directory that root cannot ignore")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("old"), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if err := WriteFile(p, []byte("new"), 0o644); err == nil {
		t.Fatal("writing into a read-only directory succeeded")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("old content lost: %q", b)
	}
	noLitter(t, dir, "f")
}

// A rename that fails after the temporary file was written (the target
// became a non-empty directory) removes the temporary file.
func TestNoTempLeftWhenTargetIsADirectoryRace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "d")
	os.MkdirAll(filepath.Join(p, "inner"), 0o755)
	if err := write(p, []byte("x"), 0o644); err == nil {
		t.Fatal("renaming over a non-empty directory succeeded")
	}
	noLitter(t, dir, "d")
}
