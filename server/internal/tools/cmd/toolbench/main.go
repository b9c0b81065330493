// Command toolbench prints the tool speed figures: grep_search through
// ripgrep and through the Go engine as ratios to running rg directly in the
// same run, an edit of a 100,000-line file, and a 256 KB read_file.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/govibe/govibe/server/internal/tools"
)

func main() {
	var o tools.BenchOptions
	flag.StringVar(&o.GrepRoot, "root", "", "tree to search (default $GOROOT/src)")
	flag.StringVar(&o.GrepPattern, "pattern", "", `literal pattern (default "func main")`)
	flag.IntVar(&o.Runs, "runs", 5, "runs per figure (median reported)")
	flag.Parse()
	if _, err := tools.Bench(context.Background(), os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "toolbench:", err)
		os.Exit(1)
	}
}
