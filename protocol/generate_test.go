package protocol_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/protocol/generate/gen"
)

// TestGeneratedFilesAreFresh fails when someone edits the contract without
// running `go generate ./protocol`.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := gen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Clean(name))
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./protocol)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./protocol", name)
		}
	}
}

func TestMethodNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range protocolMethods() {
		if seen[m] {
			t.Errorf("duplicate method %s", m)
		}
		seen[m] = true
	}
}
