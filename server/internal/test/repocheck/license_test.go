package repocheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLicenseIsShipped checks that the extension manifest names a license
// the repository really carries: the marketplace and vsce show the field,
// and "SEE LICENSE IN LICENSE" once pointed at a file that did not exist.
func TestLicenseIsShipped(t *testing.T) {
	root := repoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		License string `json:"license"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	text, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatalf("the repository has no LICENSE file (%v); package.json names %q", err, manifest.License)
	}
	if file, ok := strings.CutPrefix(manifest.License, "SEE LICENSE IN "); ok {
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			t.Fatalf("package.json points at %s, which does not exist", file)
		}
		return
	}
	// An SPDX id: the file must be that license, not another one.
	want := map[string]string{"MIT": "MIT License", "Apache-2.0": "Apache License"}[manifest.License]
	if want == "" {
		t.Fatalf("package.json's license %q is neither a known SPDX id nor SEE LICENSE IN <file>", manifest.License)
	}
	if !strings.HasPrefix(strings.TrimSpace(string(text)), want) {
		t.Fatalf("package.json says %s but LICENSE does not start with %q", manifest.License, want)
	}
}
