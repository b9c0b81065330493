package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/test/gentree"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func requireRipgrep(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("rg"); err != nil {
		t.Fatal("ripgrep (rg) is required for this test: apt-get install -y ripgrep")
	}
}

// corpus writes a few files that mention "todo" under a fresh folder.
func corpus(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestBenchRuns keeps the bench command working (not a timing assertion).
func TestBenchRuns(t *testing.T) {
	requireRipgrep(t)
	root := corpus(t, map[string]string{"main.go": "// TODO: fix\nfunc main() { todo() }\n", "src/a.ts": "const todo = 1;\n"})
	f, err := Bench(context.Background(), io.Discard, BenchOptions{GrepRoot: root, GrepPattern: "todo", Runs: 1})
	if err != nil || f.RipgrepDirect == 0 || f.Edit100k == 0 || (runtime.GOOS == "linux" && f.Edit100kCPU == 0) || f.Read256K == 0 || f.ReadFileBytes != 8000*128 {
		t.Fatalf("%+v %v", f, err)
	}
}

// Past the tool's collection cap rg direct and the tool do different
// work, so Bench refuses to judge rather than print a flattering ratio.
func TestBenchRefusesPatternPastCap(t *testing.T) {
	requireRipgrep(t)
	root := corpus(t, map[string]string{"many.txt": strings.Repeat("todo\n", tools.GrepCollectCap)})
	_, err := Bench(context.Background(), io.Discard, BenchOptions{GrepRoot: root, GrepPattern: "todo", Runs: 1})
	if err == nil || !strings.Contains(err.Error(), "not do the same work") {
		t.Fatalf("want a refusal, got %v", err)
	}
}

// The listing figures come from real list_files and glob answers over a
// generated tree.
func TestBenchListingRuns(t *testing.T) {
	root := t.TempDir()
	if err := gentree.Sources(root, 300); err != nil {
		t.Fatal(err)
	}
	if _, err := BenchListing(context.Background(), io.Discard, root, 1); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkEdit100kLines(b *testing.B) {
	for b.Loop() {
		d, err := benchEdit(context.Background(), b.TempDir(), 3)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(ms(d.wall), "ms/edit")
		b.ReportMetric(ms(d.cpu), "cpu-ms/edit")
	}
}

func BenchmarkReadFile256KB(b *testing.B) {
	for b.Loop() {
		d, _, err := benchRead(context.Background(), b.TempDir(), 3)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.Microseconds())/1000, "ms/read")
	}
}
