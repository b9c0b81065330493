package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

func TestReadPathsAndEvaluateReads(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".env", "t.txt", "src/a.go", "src/deep/.env"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	w := shellcheck.Workspace{Roots: []string{root}, Home: t.TempDir()}
	pol, _, err := NewPolicy(Settings{Deny: []string{"Read(.env)"}, Ask: []string{"Read(src/deep/**)"}}, Settings{}, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd  string
		want Verdict
		path string
	}{
		{"cat .env", Deny, ".env"},
		{"cat < .env", Deny, ".env"},
		{"bash -c 'head -n1 .env'", Deny, ".env"},
		{"grep -r KEY .", Deny, "."},
		{"cat *.env", Deny, ".env"}, // globs are expanded (dot files included: the safe side)
		{"cat .e*", Deny, ".env"},
		{"rg --file=.env x", Deny, ".env"},
		{"rg x src", Ask, "src"},
		{"cat t.txt", None, ""},
		{"echo .env-not-a-file", None, ""},
		{"ls src/a.go", None, ""},
	} {
		an := shellcheck.Analyze(tt.cmd, w)
		paths := ReadPaths(tt.cmd, an, w)
		d := pol.EvaluateReads(paths)
		if d.Verdict != tt.want {
			t.Errorf("%s: paths %v, verdict %s, want %s", tt.cmd, paths, d.Verdict, tt.want)
			continue
		}
		if tt.path != "" && d.Command != filepath.Join(root, tt.path) && !slices.Contains(paths, filepath.Join(root, tt.path)) {
			t.Errorf("%s: decided on %q", tt.cmd, d.Command)
		}
	}
}
