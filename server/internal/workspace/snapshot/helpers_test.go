package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// isolateGitEnv points HOME and XDG_CONFIG_HOME at empty directories so the
// developer's own global excludes never leak into a test.
func isolateGitEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	return home
}

func openTestStore(t *testing.T, root string, opts Options) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), root, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func writeFile(t *testing.T, root, rel, content string, perm os.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, root, target, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fileState is what a restore must reproduce for one path.
type fileState struct {
	Content string
	Mode    fs.FileMode // type bits plus exec bit only
}

// workspaceState captures every file under root (ignored ones included,
// .git directories excluded) for exact before/after comparisons.
func workspaceState(t *testing.T, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fileState{Mode: fi.Mode().Type() | fi.Mode().Perm()&0o100}
		if fi.Mode()&fs.ModeSymlink != 0 {
			st.Content, err = os.Readlink(p)
		} else {
			var b []byte
			b, err = os.ReadFile(p)
			st.Content = string(b)
		}
		out[filepath.ToSlash(rel)] = st
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffStates(a, b map[string]fileState) []string {
	var out []string
	for p, sa := range a {
		sb, ok := b[p]
		switch {
		case !ok:
			out = append(out, "only before: "+p)
		case sa != sb:
			out = append(out, "differs: "+p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, "only after: "+p)
		}
	}
	sort.Strings(out)
	return out
}

func assertState(t *testing.T, want, got map[string]fileState) {
	t.Helper()
	if d := diffStates(want, got); len(d) > 0 {
		t.Fatalf("workspace differs from expected:\n%s", strings.Join(d, "\n"))
	}
}

// hashTree fingerprints a directory byte for byte: names, modes, contents
// and symlink targets.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel + "\x00" + fi.Mode().String() + "\x00"))
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
			h.Write([]byte(fi.ModTime().UTC().String()))
		}
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// fsck verifies the shadow repository with the real git CLI.
func fsck(t *testing.T, s *Store) {
	t.Helper()
	runGit(t, s.Dir(), "--git-dir="+s.Dir(), "fsck", "--strict", "--no-dangling", "--no-progress")
}

func snap(t *testing.T, s *Store, msg string) (Info, bool) {
	t.Helper()
	info, created, err := s.Snapshot(context.Background(), Meta{SessionID: "sess", Turn: 1, Message: msg, Reason: "test"})
	if err != nil {
		t.Fatalf("Snapshot(%s): %v", msg, err)
	}
	return info, created
}

// ageFiles moves every mtime an hour back so the stat cache trusts them
// (fresh files are "racy" and always re-read).
func ageFiles(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

func removeAll(p string) error { return os.RemoveAll(p) }
