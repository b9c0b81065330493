package tools

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
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
