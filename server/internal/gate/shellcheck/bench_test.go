package shellcheck

import (
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func benchCommand(b *testing.B) string {
	data, err := os.ReadFile("../../bench/shellbench/bench1k.sh")
	if err != nil {
		b.Fatal(err)
	}
	if len(data) < 1024 {
		b.Fatalf("benchmark command is %d bytes, want 1 KB", len(data))
	}
	return string(data)
}

// BenchmarkAnalyze1KB is the analysis of a realistic 1 KB command line; the
// budget is 1 ms. BenchmarkParse1KB is the parse alone, as the reference.
func BenchmarkAnalyze1KB(b *testing.B) {
	cmd := benchCommand(b)
	ws := Workspace{Roots: []string{"/ws"}, Home: "/home/u"}
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		Analyze(cmd, ws)
	}
}

func BenchmarkParse1KB(b *testing.B) {
	cmd := benchCommand(b)
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), ""); err != nil {
			b.Fatal(err)
		}
	}
}
