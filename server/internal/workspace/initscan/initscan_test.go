package initscan

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestScoreOrder: build files and key names first, then shallow source,
// then deep or noise-folder files; lock files, binaries and empty files
// never.
func TestScoreOrder(t *testing.T) {
	mid := int64(4000)
	order := []struct {
		rel  string
		size int64
	}{
		{"go.mod", 300}, {"cmd/app/main.go", mid}, {"parser.go", mid}, {"internal/deep/pkg/util.go", mid},
		{"parser_test.go", mid}, {"huge.go", 500 << 10},
	}
	prev := 1 << 30
	for _, o := range order {
		sc, ok := Score(o.rel, o.size)
		if !ok || sc >= prev {
			t.Fatalf("%s scored %d (ok %v), not below the previous %d", o.rel, sc, ok, prev)
		}
		prev = sc
	}
	if sc, _ := Score("vendor/x/x.go", mid); sc > minScore {
		t.Fatalf("vendored code scored %d, above the pick threshold", sc)
	}
	for _, rel := range []string{"package-lock.json", "go.sum", "logo.png", "app.min.js"} {
		if _, ok := Score(rel, mid); ok {
			t.Errorf("%s is never worth reading", rel)
		}
	}
	if _, ok := Score("empty.go", 0); ok {
		t.Error("an empty file is never worth reading")
	}
}

// TestExplore: .gitignore honoured, the README found and not picked,
// at most MaxPicks files, best first, noise left out.
func TestExplore(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"README.md": "# Demo\n", ".gitignore": "build/\n", "build/out.go": strings.Repeat("x", 3000),
		"go.mod": "module demo\n\ngo 1.22\n" + strings.Repeat("// pad\n", 40), "testdata/fixture.go": strings.Repeat("y", 3000),
	}
	for i := 0; i < 14; i++ {
		files[filepath.ToSlash(filepath.Join("pkg", "f"+string(rune('a'+i))+".go"))] = strings.Repeat("z", 1000+i)
	}
	write(t, root, files)
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s := Explore(root)
	if s.Readme != "README.md" || len(s.Picks) != MaxPicks || s.Picks[0].Path != "go.mod" {
		t.Fatalf("survey: readme %q picks %+v", s.Readme, s.Picks)
	}
	for _, p := range s.Picks {
		if p.Path == "README.md" || strings.HasPrefix(p.Path, "build/") || strings.HasPrefix(p.Path, "testdata/") {
			t.Fatalf("picked %s", p.Path)
		}
	}
	if slices.Contains(s.Files, "build/out.go") {
		t.Fatal("an ignored file was listed")
	}
	prompt := Prompt([]Survey{s})
	if !strings.Contains(prompt, "<readme path=\"README.md\">\n# Demo\n</readme>") || !strings.Contains(prompt, "- go.mod (") || !strings.Contains(prompt, `load_skill("memory-bootstrap")`) {
		t.Fatalf("prompt:\n%s", prompt)
	}
}
