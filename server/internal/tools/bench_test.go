package tools

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func goSrc() string { return filepath.Join(runtime.GOROOT(), "src") }

var benchQuery = grepQuery{pattern: "func main"}

func BenchmarkGrepRipgrepDirect(b *testing.B) {
	rg := requireRipgrep(b)
	for b.Loop() {
		cmd := exec.Command(rg, ripgrepArgs(benchQuery)...)
		cmd.Dir, cmd.Stdout = goSrc(), io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchGrepTool(b *testing.B, rgPath string) {
	env := &Env{Roots: []string{goSrc()}, Files: NewFileTracker(), Settings: Settings{RipgrepPath: rgPath}}
	args := json.RawMessage(`{"pattern":"func main","maxResults":500}`)
	for b.Loop() {
		r, err := GrepSearch().Run(context.Background(), env, args)
		if err != nil || !r.OK {
			b.Fatal(err, r.Output)
		}
	}
}

func BenchmarkGrepToolRipgrep(b *testing.B) { requireRipgrep(b); benchGrepTool(b, "") }
func BenchmarkGrepToolGo(b *testing.B)      { benchGrepTool(b, filepath.Join(b.TempDir(), "no-rg")) }

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

// TestBenchRuns keeps the bench command working (not a timing assertion).
func TestBenchRuns(t *testing.T) {
	requireRipgrep(t)
	_, root := newEnv(t)
	grepCorpus(t, root)
	f, err := Bench(context.Background(), io.Discard, BenchOptions{GrepRoot: root, GrepPattern: "todo", Runs: 1})
	if err != nil || f.RipgrepDirect == 0 || f.Edit100k == 0 || (runtime.GOOS == "linux" && f.Edit100kCPU == 0) || f.Read256K == 0 || f.ReadFileBytes != 8000*128 {
		t.Fatalf("%+v %v", f, err)
	}
}

// Past the tool's collection cap rg direct and the tool do different
// work, so Bench refuses to judge rather than print a flattering ratio.
func TestBenchRefusesPatternPastCap(t *testing.T) {
	requireRipgrep(t)
	_, root := newEnv(t)
	write(t, filepath.Join(root, "many.txt"), strings.Repeat("todo\n", grepCollectCap))
	_, err := Bench(context.Background(), io.Discard, BenchOptions{GrepRoot: root, GrepPattern: "todo", Runs: 1})
	if err == nil || !strings.Contains(err.Error(), "not do the same work") {
		t.Fatalf("want a refusal, got %v", err)
	}
}
