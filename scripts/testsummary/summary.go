package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// event is one line of go test -json (cmd/test2json's TestEvent, plus
// the build-output and build-fail events go test adds since Go 1.24).
type event struct {
	Action     string
	Package    string
	ImportPath string // build events only
	Test       string
	Elapsed    float64 // seconds
	Output     string
}

// timing is how long one top-level test took.
type timing struct {
	pkg, test string
	elapsed   time.Duration
}

// summary turns the event stream back into go test's plain output and
// remembers each top-level test's time.
type summary struct {
	w      io.Writer
	failed bool
	// running buffers the output of each test still running, by package
	// and test name: printed only if the test fails or never finishes.
	running map[string]map[string]*bytes.Buffer
	// order keeps each package's unfinished tests in the order they
	// started, so what a crash left behind prints in a stable order.
	order   map[string][]string
	timings []timing
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, running: map[string]map[string]*bytes.Buffer{}, order: map[string][]string{}}
}

func (s *summary) line(raw []byte) {
	var e event
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) && json.Unmarshal(raw, &e) == nil && e.Action != "" {
		s.event(e)
		return
	}
	s.w.Write(raw)
	if !bytes.HasSuffix(raw, []byte("\n")) {
		io.WriteString(s.w, "\n")
	}
}

func (s *summary) event(e event) {
	switch e.Action {
	case "build-output":
		io.WriteString(s.w, e.Output)
		return
	case "build-fail":
		s.failed = true
		return
	}
	if e.Test == "" {
		s.packageEvent(e)
		return
	}
	switch e.Action {
	case "run":
		s.buffer(e.Package, e.Test)
	case "output":
		s.buffer(e.Package, e.Test).WriteString(e.Output)
	case "pass", "fail", "skip":
		out := s.buffer(e.Package, e.Test)
		s.finish(e.Package, e.Test)
		if e.Action == "fail" {
			s.failed = true
			s.printTest(out)
		}
		if !strings.Contains(e.Test, "/") && e.Action != "skip" {
			s.timings = append(s.timings, timing{e.Package, e.Test, time.Duration(e.Elapsed * float64(time.Second))})
		}
	}
}

// packageEvent prints a package's own lines ("ok  pkg 1.2s", "FAIL pkg",
// "[no test files]") and, when the package ends, the output of any test
// that never finished: a panic or a timeout is reported there.
func (s *summary) packageEvent(e event) {
	switch e.Action {
	case "output":
		if e.Output != "PASS\n" { // plain go test of many packages omits it
			io.WriteString(s.w, e.Output)
		}
	case "pass", "fail", "skip":
		if e.Action == "fail" {
			s.failed = true
		}
		for _, test := range s.order[e.Package] {
			if out, ok := s.running[e.Package][test]; ok {
				fmt.Fprintf(s.w, "--- %s did not finish:\n", test)
				s.printTest(out)
			}
		}
		delete(s.running, e.Package)
		delete(s.order, e.Package)
	}
}

func (s *summary) buffer(pkg, test string) *bytes.Buffer {
	tests := s.running[pkg]
	if tests == nil {
		tests = map[string]*bytes.Buffer{}
		s.running[pkg] = tests
	}
	b := tests[test]
	if b == nil {
		b = &bytes.Buffer{}
		tests[test] = b
		s.order[pkg] = append(s.order[pkg], test)
	}
	return b
}

func (s *summary) finish(pkg, test string) {
	delete(s.running[pkg], test)
	order := s.order[pkg]
	for i, t := range order {
		if t == test {
			s.order[pkg] = append(order[:i:i], order[i+1:]...)
			break
		}
	}
}

// printTest prints a test's output without the === RUN/PAUSE/CONT/NAME
// framing that only -v shows.
func (s *summary) printTest(out *bytes.Buffer) {
	for _, l := range strings.SplitAfter(out.String(), "\n") {
		if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "=== ") {
			continue
		}
		io.WriteString(s.w, l)
	}
}

// printSlowest prints the n slowest top-level tests, slowest first.
func (s *summary) printSlowest(n int) {
	if len(s.timings) == 0 {
		return
	}
	sort.SliceStable(s.timings, func(i, j int) bool { return s.timings[i].elapsed > s.timings[j].elapsed })
	n = min(n, len(s.timings))
	fmt.Fprintf(s.w, "\nslowest %d of %d tests:\n", n, len(s.timings))
	for _, t := range s.timings[:n] {
		fmt.Fprintf(s.w, "  %8.2fs  %s  %s\n", t.elapsed.Seconds(), t.pkg, t.test)
	}
}
