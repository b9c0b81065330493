package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustedFoldersFile: a workspace is trusted when it or a parent is
// listed; a sibling with a common prefix is not; a malformed file is an
// error naming it; a missing file trusts nothing.
func TestTrustedFoldersFile(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	root := t.TempDir()
	ws := filepath.Join(root, "proj", "sub")
	sibling := filepath.Join(root, "proj2")
	for _, d := range []string{ws, sibling} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := workspaceTrusted(ws); ok || err != nil {
		t.Fatalf("no file: trusted=%v err=%v", ok, err)
	}
	file := filepath.Join(cfg, "govibe", "trusted-folders.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`["`+filepath.Join(root, "proj")+`", "relative/path", ""]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, err := workspaceTrusted(ws); !ok || err != nil {
		t.Fatalf("listed parent: trusted=%v err=%v", ok, err)
	}
	if ok, _ := workspaceTrusted(sibling); ok {
		t.Fatal("a sibling sharing the prefix was trusted")
	}
	if err := os.WriteFile(file, []byte(`{"not": "a list"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := workspaceTrusted(ws); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("malformed file: %v", err)
	}
}
