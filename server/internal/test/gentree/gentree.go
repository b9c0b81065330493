// Package gentree writes the generated file trees that tests and the
// benchmarks (make bench) share, so that a test and the figure it guards
// measure the same shape of tree. It imports nothing of GoVibe's.
package gentree

import (
	"fmt"
	"os"
	"path/filepath"
)

// Sources writes n small source files under dir, 100 to a folder in a
// three-level tree (pkg00/mod000/file000000.ts), with "func main" in one
// file of 50 and every fourth file a .ts: the tree grep, list_files and
// glob are measured on at monorepo scale (toolbench, issue 17) and tested
// on (tools' cap tests).
func Sources(dir string, n int) error {
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i/10000), fmt.Sprintf("mod%03d", i/100%100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		body := fmt.Sprintf("package mod\n\n// File %d holds a helper.\nfunc helper%d(x int) int {\n\treturn x * %d\n}\n", i, i, i)
		if i%50 == 0 {
			body += "\nfunc main() {}\n"
		}
		name := fmt.Sprintf("file%06d.go", i)
		if i%4 == 0 {
			name = fmt.Sprintf("file%06d.ts", i)
		}
		if err := os.WriteFile(filepath.Join(sub, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Empty writes dirs folders of files empty Go files each under root,
// twenty folders to a module: mod000/pkg000/file000.go and on. The tree
// the @-mention autocomplete is measured on (completebench) and tested on
// (filecomplete).
func Empty(root string, dirs, files int) error {
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, fmt.Sprintf("mod%03d", d/20), fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for f := 0; f < files; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), nil, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
