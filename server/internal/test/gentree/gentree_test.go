package gentree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shapes the tests that use these trees rely on.
func TestShapes(t *testing.T) {
	src := t.TempDir()
	if err := Sources(src, 201); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"pkg00/mod000/file000000.ts": "func main() {}",
		"pkg00/mod000/file000001.go": "func helper1(",
		"pkg00/mod002/file000200.ts": "func main() {}",
	} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: %v %q, want %q in it", name, err, data, want)
		}
	}
	empty := t.TempDir()
	if err := Empty(empty, 21, 3); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mod000/pkg000/file000.go", "mod001/pkg020/file002.go"} {
		if _, err := os.Stat(filepath.Join(empty, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(empty, "mod000/pkg000/file003.go")); err == nil {
		t.Error("Empty wrote more files per folder than asked")
	}
}
