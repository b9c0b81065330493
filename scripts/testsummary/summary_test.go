package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// run feeds a recorded go test -json stream (testdata: captured from real
// runs of a small module, trimmed) through a summary.
func run(t *testing.T, file string) (string, *summary) {
	t.Helper()
	f, err := os.Open("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(f); err != nil {
		t.Fatal(err)
	}
	s.printSlowest(10)
	return out.String(), s
}

func contains(t *testing.T, out string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in:\n%s", w, out)
		}
	}
	for _, w := range notWant {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %q in:\n%s", w, out)
		}
	}
}

// A failing test's output and a build error are shown as plain go test
// shows them; passing tests stay quiet; the slowest list names top-level
// tests only.
func TestFailuresReadable(t *testing.T) {
	out, s := run(t, "fail.jsonl")
	if !s.failed {
		t.Error("a failed run was not counted as failed")
	}
	contains(t, out,
		[]string{"b/b_test.go:3:28: undefined: x", "FAIL\texample.com/s/b [build failed]", "[no test files]",
			"    a_test.go:4: bad thing\n--- FAIL: TestFail/sub (0.00s)\n", "--- FAIL: TestFail (0.00s)", "FAIL\texample.com/s/a\t0.002s",
			"slowest 2 of 2 tests:\n      3.25s  example.com/s/a  TestFail\n      0.50s  example.com/s/a  TestPass\n"},
		[]string{"quiet", "=== RUN", "--- PASS", "TestFail/ok", "PASS\n"})
}

// A test that never finished (a timeout's panic) is printed when its
// package ends.
func TestUnfinishedTestIsShown(t *testing.T) {
	out, s := run(t, "timeout.jsonl")
	if !s.failed {
		t.Error("a timed-out run was not counted as failed")
	}
	contains(t, out,
		[]string{"--- TestHang did not finish:\n    a_test.go:4: before\npanic: test timed out after 1s\n", "a_test.go:4 +0x49", "FAIL\texample.com/s/a\t1.009s"},
		[]string{"quiet", "=== RUN"})
}

// Lines that are not events pass through; a clean run is not failed; the
// list is capped and sorted.
func TestSlowestAndPassThrough(t *testing.T) {
	var in strings.Builder
	in.WriteString("go: downloading example.com/x v1.0.0\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&in, `{"Action":"pass","Package":"p","Test":"T%02d","Elapsed":%d}`+"\n", i, i)
	}
	in.WriteString(`{"Action":"pass","Package":"p","Test":"T12/sub","Elapsed":99}` + "\n")
	in.WriteString(`{"Action":"output","Package":"p","Output":"PASS\n"}` + "\n")
	in.WriteString(`{"Action":"output","Package":"p","Output":"ok  \tp\t1.0s\n"}` + "\n")
	in.WriteString(`{"Action":"pass","Package":"p","Elapsed":1}`)
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader(in.String())); err != nil {
		t.Fatal(err)
	}
	s.printSlowest(10)
	if s.failed {
		t.Error("a clean run was counted as failed")
	}
	got := out.String()
	contains(t, got, []string{"go: downloading example.com/x v1.0.0\n", "ok  \tp\t1.0s\n", "slowest 10 of 12 tests:\n     12.00s  p  T12\n", "      3.00s  p  T03\n"},
		[]string{"T02", "T12/sub", "PASS\n"})
}
