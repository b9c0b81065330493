// Command toolbench prints the tool speed figures: grep_search through
// ripgrep and through the Go engine as ratios to running rg directly in the
// same run, an edit of a 100,000-line file, and a 256 KB read_file.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/govibe/govibe/server/internal/test/gentree"
)

func main() {
	var o BenchOptions
	flag.StringVar(&o.GrepRoot, "root", "", "tree to search (default $GOROOT/src)")
	flag.StringVar(&o.GrepPattern, "pattern", "", `literal pattern (default "func main")`)
	flag.IntVar(&o.Runs, "runs", 5, "runs per figure (median reported)")
	files := flag.Int("files", 0, "generate a tree of this many files and measure grep, list_files and glob over it instead of -root (issue 17: 100000)")
	flag.Parse()
	ctx := context.Background()
	missed := 0
	if *files > 0 {
		dir, err := os.MkdirTemp("", "toolbench-tree-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "toolbench:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
		t0 := time.Now()
		if err := gentree.Sources(dir, *files); err != nil {
			fmt.Fprintln(os.Stderr, "toolbench:", err)
			os.Exit(1)
		}
		fmt.Printf("generated %d files in %v\n", *files, time.Since(t0).Round(time.Millisecond))
		o.GrepRoot = dir
		m, err := BenchListing(ctx, os.Stdout, dir, o.Runs)
		missed += m
		if err != nil {
			fmt.Fprintln(os.Stderr, "toolbench:", err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	f, err := Bench(ctx, os.Stdout, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "toolbench:", err)
		os.Exit(1)
	}
	if missed += f.Missed; missed > 0 {
		fmt.Printf("toolbench: %d goal(s) missed\n", missed)
		os.Exit(1)
	}
}
