package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records a Fatal instead of stopping the test.
type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = format
	panic(f)
}
func (f *fakeT) Fatal(args ...any) { f.Fatalf("fatal") }

func fails(t *testing.T, f func(tb testing.TB)) string {
	t.Helper()
	ft := &fakeT{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil && r != any(ft) {
				panic(r)
			}
		}()
		f(ft)
	}()
	return ft.failed
}

func TestCopyKeepsModesAndNeedsTheNote(t *testing.T) {
	var script string
	err := filepath.WalkDir(Dir(t), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || script != "" || strings.HasSuffix(p, ".source") {
			return err
		}
		if st, _ := d.Info(); st.Mode().Perm()&0o100 != 0 {
			script = p
		}
		return nil
	})
	if err != nil || script == "" {
		t.Fatalf("no executable file in the corpus (%v)", err)
	}
	rel, _ := filepath.Rel(Dir(t), script)
	dst := t.TempDir()
	Copy(t, dst, map[string]string{filepath.ToSlash(rel): "a/b/x"})
	st, err := os.Stat(filepath.Join(dst, "a", "b", "x"))
	if err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Fatalf("the copy lost its mode: %v %v", st, err)
	}
	if want, _ := os.ReadFile(script); Read(t, filepath.ToSlash(rel)) != string(want) {
		t.Errorf("Read(%s) differs from the file", rel)
	}
	if msg := fails(t, func(tb testing.TB) { Read(tb, "README.md") }); !strings.Contains(msg, "no .source note") {
		t.Errorf("Read of a file without a note: %q", msg)
	}
	if msg := fails(t, func(tb testing.TB) { Path(tb, "README.md") }); !strings.Contains(msg, "no .source note") {
		t.Fatalf("a file without a note: %q", msg)
	}
	if msg := fails(t, func(tb testing.TB) { Path(tb, "no/such/file") }); msg == "" {
		t.Fatal("a missing file passed")
	}
}
