// Command generate writes the Go dispatch glue and the TypeScript contract
// from protocol.Methods. Run it with `go generate ./protocol`.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/protocol/generate/gen"
)

func main() {
	dir := flag.String("dir", ".", "the protocol package directory")
	flag.Parse()
	files, err := gen.Generate(*dir)
	if err != nil {
		log.Fatal(err)
	}
	for name, data := range files {
		path := filepath.Join(*dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", filepath.Clean(path))
	}
}
