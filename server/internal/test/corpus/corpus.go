// Package corpus gives tests the shared compatibility corpus,
// testdata/compat: real files from public repositories, each beside a
// .source note naming its repository, path and commit. A file without its
// note fails the test that asks for it, so nothing enters the corpus
// without its origin. It imports nothing of GoVibe's.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the corpus folder, found from the test's working directory
// upwards (the module root holds go.mod and testdata/compat).
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "compat")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("corpus: no go.mod above the working directory")
		}
		dir = up
	}
}

// Path is the absolute path of corpus file rel (slash-separated), after
// checking that the file and its .source note exist.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("corpus file: %v", err)
	}
	if _, err := os.Stat(p + ".source"); err != nil {
		t.Fatalf("corpus file %s has no .source note", rel)
	}
	return p
}

// Read is the content of corpus file rel (slash-separated), after the same
// checks as Path.
func Read(t testing.TB, rel string) string {
	t.Helper()
	data, err := os.ReadFile(Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Copy copies corpus files (corpus path → slash-separated path under
// dst), keeping their modes, so a script stays executable.
func Copy(t testing.TB, dst string, files map[string]string) {
	t.Helper()
	for src, rel := range files {
		p := Path(t, src)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		full := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}
