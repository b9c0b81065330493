package osbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Go's caches are made on the first call only: a later call (one per
// command) neither searches PATH nor makes them again, and lists only the
// caches that exist.
func TestDefaultCachesMadeOncePerProcess(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	home := t.TempDir()
	noEnv := func(string) string { return "" }
	build, mod := filepath.Join(home, ".cache", "go-build"), filepath.Join(home, "go", "pkg", "mod")
	got := DefaultCaches(noEnv, home)
	if !slices.Contains(got, build) || !slices.Contains(got, mod) {
		t.Fatalf("first call: %v, want %s and %s made", got, build, mod)
	}
	if err := os.RemoveAll(build); err != nil {
		t.Fatal(err)
	}
	got = DefaultCaches(noEnv, home)
	if _, err := os.Stat(build); err == nil {
		t.Fatalf("the second call made %s again", build)
	}
	if slices.Contains(got, build) || !slices.Contains(got, mod) {
		t.Fatalf("second call: %v, want %s only among Go's", got, mod)
	}
}
