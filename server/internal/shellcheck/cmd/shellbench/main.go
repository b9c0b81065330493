// Command shellbench measures how long shellcheck.Analyze takes on a 1 KB
// command line, against parsing the same line alone (measured in the same
// run as the reference) and against the 1 ms budget.
package main

import (
	_ "embed"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/shellcheck"
	"mvdan.cc/sh/v3/syntax"
)

//go:embed bench1k.sh
var command string

const budget = time.Millisecond

func main() {
	ws := shellcheck.Workspace{Roots: []string{"/ws"}, Cwd: "/ws", Home: "/home/u"}
	parse := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	analyze := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			shellcheck.Analyze(command, ws)
		}
	})
	a := shellcheck.Analyze(command, ws)
	perOp := time.Duration(analyze.NsPerOp())
	fmt.Printf("command: %d bytes, %d sub-commands, class %s\n", len(command), len(a.Commands), a.Class)
	fmt.Printf("parse only (reference): %v/op\n", time.Duration(parse.NsPerOp()))
	fmt.Printf("analyze:                %v/op, %d allocs/op\n", perOp, analyze.AllocsPerOp())
	fmt.Printf("analyze/parse ratio:    %.2fx\n", float64(analyze.NsPerOp())/float64(parse.NsPerOp()))
	fmt.Printf("budget use:             %.1f%% of %v\n", 100*float64(perOp)/float64(budget), budget)
	if perOp > budget {
		fmt.Println("FAIL: over budget")
		os.Exit(1)
	}
}
