package modes

import (
	"strings"
	"testing"
)

// Real outputs of the runners where nothing ran, or where tests were
// skipped, built wrong or did not load: the diff never reads 0 unless
// some test ran and none failed (a 0 would end the loop as Ready).
func TestParseDiffNothingRanIsNotZero(t *testing.T) {
	for _, c := range []struct {
		file   string
		failed int
		format string
	}{
		{"go_nofiles.json", 1, "go-json"}, // "[no test files]": nothing ran
		{"go_skip.json", 1, "go-json"},    // the only test skipped
		{"go_build.json", 1, "go-json"},   // a _test.go that does not compile
		{"vitest_none.json", 1, "jest-json"},
		// 2 failing tests, 2 files that did not load (one imports a
		// missing module, one does not parse); the skipped test is neither.
		{"vitest_mixed.json", 4, "jest-json"},
	} {
		r, err := ParseDiff(read(t, c.file))
		if err != nil || r.Failed != c.failed || r.Format != c.format {
			t.Errorf("%s: %+v %v, want %d failing (%s)", c.file, r, err, c.failed, c.format)
		}
	}
	r, err := ParseDiff("0 passed, 0 failed")
	if err != nil || r.Failed != 1 || !strings.Contains(strings.Join(r.Names, ","), "no tests ran") {
		t.Errorf("0 passed, 0 failed: %+v %v", r, err)
	}
}

// The plain summary is read as the common runners print it: counts in
// either order, with decorations, errors counted as failures.
func TestParseDiffPlainVariants(t *testing.T) {
	for line, want := range map[string][2]int{
		"2 passed, 1 failed":                                   {2, 1},
		"Tests:       1 failed, 2 passed, 3 total":             {2, 1}, // jest
		"===== 1 failed, 2 passed in 0.12s =====":              {2, 1}, // pytest
		"===== 5 passed in 0.10s =====":                        {5, 0},
		"== 1 failed, 3 passed, 2 errors in 1s ==":             {3, 3},
		"      Tests  2 failed | 1 passed | 1 skipped (4)":     {1, 2}, // vitest's default reporter
		"progress 1 passed, 0 failed\nall: 3 passed, 2 failed": {3, 2},
	} {
		r, err := ParseDiff(line)
		if err != nil || r.Passed != want[0] || r.Failed != want[1] {
			t.Errorf("%q: %+v %v, want %v", line, r, err, want)
		}
	}
	// A sentence that merely mentions a count is not a report.
	if _, err := ParseDiff("the migration passed review yesterday"); err == nil {
		t.Error("prose read as a report")
	}
}
