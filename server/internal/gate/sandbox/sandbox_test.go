package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	rootA := filepath.Join(base, "alpha")
	rootB := filepath.Join(base, "beta")
	outside := filepath.Join(base, "outside")
	mkfile(t, filepath.Join(rootA, "src", "a.go"))
	mkfile(t, filepath.Join(rootB, "only_b.txt"))
	mkfile(t, filepath.Join(rootA, ".git", "config"))
	mkfile(t, filepath.Join(outside, "secret.txt"))
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(outside, filepath.Join(rootA, "linkout")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(rootA, "secretlink")))
	must(os.Symlink(filepath.Join(rootA, "src"), filepath.Join(rootA, "linkin")))
	must(os.Symlink(filepath.Join(outside, "nothere"), filepath.Join(rootA, "dangling")))

	sb := New([]string{rootA, rootB})
	cases := []struct {
		name, path string
		write      bool
		want       string // "" means refused
		reason     string // substring of the refusal
	}{
		{name: "empty is first root", path: "", want: rootA},
		{name: "dot is first root", path: ".", want: rootA},
		{name: "relative file", path: "src/a.go", want: filepath.Join(rootA, "src", "a.go")},
		{name: "new file in first root", path: "src/new.go", want: filepath.Join(rootA, "src", "new.go")},
		{name: "inner dotdot stays inside", path: "src/../src/a.go", want: filepath.Join(rootA, "src", "a.go")},
		{name: "found in second root", path: "only_b.txt", want: filepath.Join(rootB, "only_b.txt")},
		{name: "second root by folder name", path: "beta/new.txt", want: filepath.Join(rootB, "new.txt")},
		{name: "absolute inside", path: filepath.Join(rootB, "only_b.txt"), want: filepath.Join(rootB, "only_b.txt")},
		{name: "dotdot to sibling root", path: "../beta/only_b.txt", want: filepath.Join(rootB, "only_b.txt")},
		{name: "symlink staying inside", path: "linkin/a.go", want: filepath.Join(rootA, "linkin", "a.go")},
		{name: "read inside .git allowed", path: ".git/config", want: filepath.Join(rootA, ".git", "config")},
		{name: "dotdot escape", path: "../outside/secret.txt", reason: "'..' leads outside"},
		{name: "deep dotdot escape", path: "src/../../../etc/passwd", reason: "'..' leads outside"},
		{name: "bare dotdot", path: "..", reason: "'..' leads outside"},
		{name: "backslash dotdot", path: `..\outside\secret.txt`, reason: "'..' leads outside"},
		{name: "absolute outside", path: "/etc/passwd", reason: "absolute path is outside"},
		{name: "absolute prefix trick", path: rootA + "-evil/x", reason: "absolute path is outside"},
		{name: "absolute dotdot", path: rootA + "/../outside/secret.txt", reason: "absolute path is outside"},
		{name: "symlinked dir out", path: "linkout/secret.txt", reason: "symlink"},
		{name: "symlinked file out", path: "secretlink", reason: "symlink"},
		{name: "new file under symlinked dir out", path: "linkout/newdir/new.txt", reason: "symlink"},
		{name: "dangling symlink out", path: "dangling", reason: "symlink"},
		{name: "drive letter", path: `C:\Windows\system.ini`, reason: "drive"},
		{name: "drive letter slash", path: `c:/x`, reason: "drive"},
		{name: "unc", path: `\\server\share\x`, reason: "UNC"},
		{name: "device path", path: `//?/C:/x`, reason: "UNC"},
		{name: "device backslash", path: `\\?\C:\x`, reason: "UNC"},
		{name: "double slash", path: `//server/share`, reason: "UNC"},
		{name: "nul byte", path: "src/a.go\x00.txt", reason: "NUL"},
		{name: "write into .git", path: ".git/config", write: true, reason: ".git"},
		{name: "write into nested .git", path: "src/.git/hooks/pre-commit", write: true, reason: ".git"},
		{name: "write into .GIT case", path: ".GIT/HEAD", write: true, reason: ".git"},
		{name: "write regular file", path: "src/a.go", write: true, want: filepath.Join(rootA, "src", "a.go")},
		{name: "write .gitignore is fine", path: ".gitignore", write: true, want: filepath.Join(rootA, ".gitignore")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			var err error
			if tc.write {
				got, err = sb.ResolveForWrite(tc.path)
			} else {
				got, err = sb.Resolve(tc.path)
			}
			if tc.want != "" {
				if err != nil {
					t.Fatalf("Resolve(%q) refused: %v", tc.path, err)
				}
				if got != tc.want {
					t.Fatalf("Resolve(%q) = %q, want %q", tc.path, got, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Resolve(%q) = %q, want refusal", tc.path, got)
			}
			var esc *EscapeError
			if !errors.As(err, &esc) {
				t.Fatalf("error %T is not *EscapeError", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.reason) || !strings.Contains(msg, rootA) || !strings.Contains(msg, rootB) {
				t.Fatalf("refusal %q should mention %q and both roots", msg, tc.reason)
			}
		})
	}
}

func TestDisplayAndNoRoots(t *testing.T) {
	sb := New([]string{"/w/a", "/w/b", "/w/a"})
	if got := len(sb.Roots()); got != 2 {
		t.Fatalf("duplicate root kept: %d roots", got)
	}
	for in, want := range map[string]string{"/w/a/x/y.go": "x/y.go", "/w/b/z.go": "b/z.go", "/w/b": "b", "/etc": "/etc"} {
		if got := sb.Display(in); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := New(nil).Resolve("x"); !errors.Is(err, ErrNoRoots) {
		t.Fatalf("no roots: got %v", err)
	}
}

func TestSymlinkedRoot(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	mkfile(t, filepath.Join(real, "f.txt"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	sb := New([]string{link})
	got, err := sb.Resolve("f.txt")
	if err != nil || got != filepath.Join(link, "f.txt") {
		t.Fatalf("got %q, %v", got, err)
	}
	// The real spelling of the root is accepted and mapped back.
	got, err = sb.Resolve(filepath.Join(real, "f.txt"))
	if err != nil || got != filepath.Join(link, "f.txt") {
		t.Fatalf("real spelling: got %q, %v", got, err)
	}
}
