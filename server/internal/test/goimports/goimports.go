// Package goimports lists what a package's non-test files import, for the
// tests that keep a package a leaf or keep the layers pointing down.
package goimports

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Module is the module path: an import under it is one of GoVibe's.
const Module = "github.com/govibe/govibe/"

// Import is one import of one file.
type Import struct {
	File, Path string
}

// Of lists the imports of dir's non-test Go files (not its sub-folders).
func Of(dir string) ([]Import, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Import
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out = append(out, Import{File: e.Name(), Path: p})
		}
	}
	return out, nil
}

// Internal is Of limited to GoVibe's own packages.
func Internal(dir string) ([]Import, error) {
	all, err := Of(dir)
	var out []Import
	for _, im := range all {
		if strings.HasPrefix(im.Path, Module) {
			out = append(out, im)
		}
	}
	return out, err
}
