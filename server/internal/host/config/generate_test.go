package config_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/host/config/generate/gen"
)

// TestGeneratedFilesAreFresh fails when someone edits the settings schema
// (or a generated file) without running `go generate ./server/internal/host/config`.
func TestGeneratedFilesAreFresh(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	files, err := gen.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./server/internal/host/config)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./server/internal/host/config", name)
		}
	}
}
