package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// BenchListing measures list_files (recursive, default cap) and glob over
// root against a raw filepath.WalkDir of the whole tree in the same run,
// and prints one line per figure to w. The goal is the first page in
// under 100 ms whatever the tree's size, so the ratio falls as trees grow.
func BenchListing(ctx context.Context, w io.Writer, root string, runs int) (missed int, err error) {
	env := &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker()}
	walk := func() error {
		return filepath.WalkDir(root, func(string, fs.DirEntry, error) error { return nil })
	}
	tool := func(t tools.Tool, args map[string]any) func() error {
		raw, _ := json.Marshal(args)
		return func() error {
			r, err := t.Run(ctx, env, raw)
			if err == nil && !r.OK {
				err = fmt.Errorf("%s", r.Output)
			}
			return err
		}
	}
	cases := []struct {
		name string
		fn   func() error
	}{
		{"raw walk of the whole tree (reference)", walk},
		{"list_files recursive, first 500", tool(tools.ListFiles(), map[string]any{"recursive": true})},
		{"glob **/*.go, first page", tool(tools.Glob(), map[string]any{"pattern": "**/*.go"})},
		{"glob pkg00/**/file0000*.ts (selective)", tool(tools.Glob(), map[string]any{"pattern": "pkg00/**/file0000*.ts"})},
	}
	ds := make([][]time.Duration, len(cases))
	for i := 0; i <= runs; i++ {
		for j, c := range cases {
			t0 := time.Now()
			if err := c.fn(); err != nil {
				return missed, fmt.Errorf("%s: %w", c.name, err)
			}
			if i > 0 {
				ds[j] = append(ds[j], time.Since(t0))
			}
		}
	}
	ref := median(ds[0])
	fmt.Fprintf(w, "listing over %s (median of %d)\n", root, runs)
	for j, c := range cases {
		d := median(ds[j])
		goal := ""
		if j > 0 {
			goal = "(goal < 100 ms: " + verdict(d < 100*time.Millisecond, &missed) + ")"
		}
		fmt.Fprintf(w, "  %-40s %8.1f ms  ratio %.2fx %s\n", c.name+":", ms(d), ratio(d, ref), goal)
	}
	return missed, nil
}
