// Command testsummary reads `go test -json` on stdin and prints what a
// plain `go test` of many packages prints (a line per package, the output
// of each failing test, build errors), then the ten slowest tests, so that
// make test says where its time goes. It exits 1 when anything failed;
// make test-go also keeps go test's own exit status (set -o pipefail).
//
//	go test -json ./... | go run ./scripts/testsummary [-slowest FILE]
//
// -slowest FILE also writes the slowest list to FILE, so that make test
// can print it again once the TypeScript and e2e suites have run.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	slowestFile := flag.String("slowest", "", "also write the slowest tests to this file")
	flag.Parse()
	s := newSummary(os.Stdout)
	if err := s.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	var slowest bytes.Buffer
	s.w = io.MultiWriter(os.Stdout, &slowest)
	s.printSlowest(10)
	if *slowestFile != "" {
		if err := os.WriteFile(*slowestFile, slowest.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(2)
		}
	}
	if s.failed {
		os.Exit(1)
	}
}

// read handles every line of r; a line that is not a test event is
// printed as it is, so nothing go test says is lost.
func (s *summary) read(r io.Reader) error {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			s.line(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
