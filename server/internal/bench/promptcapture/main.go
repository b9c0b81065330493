// Command promptcapture records what GoVibe sends each role in each mode
// (the first request's system prompt, tool definitions and last user
// message) and writes them as golden files under testdata, so a prompt
// change shows up in review; it prints their tokens. The test
// (capture_test.go) fails when testdata is stale.
//
//	go run ./server/internal/bench/promptcapture -write
//
//go:generate go run . -write
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	write := flag.Bool("write", false, "rewrite the golden files under -dir")
	dir := flag.String("dir", "testdata", "the golden files' folder")
	flag.Parse()
	cs, err := captureAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, "promptcapture:", err)
		os.Exit(1)
	}
	fmt.Printf("%-18s %8s %8s %8s %8s %6s\n", "role and mode", "system", "tools", "user", "total", "tools#")
	for _, c := range cs {
		s, t, u := c.tokens()
		fmt.Printf("%-18s %8d %8d %8d %8d %6d\n", c.Name, s, t, u, s+t+u, len(c.Tools))
		if *write {
			if err := os.MkdirAll(*dir, 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "promptcapture:", err)
				os.Exit(1)
			}
			if err := os.WriteFile(filepath.Join(*dir, c.Name+".md"), []byte(c.render()), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "promptcapture:", err)
				os.Exit(1)
			}
		}
	}
}
