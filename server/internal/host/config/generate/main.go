// Command generate writes everything derived from config.Schema:
// package.json's contributes.configuration, its nls entries, the typed Go
// accessors, the extension's TS types and the README's settings table. Run
// it with `go generate ./server/internal/host/config`.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/host/config/generate/gen"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	files, err := gen.Generate(*root)
	if err != nil {
		log.Fatal(err)
	}
	for name, data := range files {
		path := filepath.Join(*root, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", filepath.Clean(path))
	}
}
