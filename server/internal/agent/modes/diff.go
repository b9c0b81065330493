package modes

import (
	"bufio"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Result is what the auditor read from a test run.
type Result struct {
	Failed int
	Passed int
	Format string   // go-json|jest-json|plain
	Names  []string // failing tests, where the format names them
	// NoneRan: the report shows no test run; Failed is 1 for it.
	NoneRan bool
}

// ErrNoReport means the output holds none of the known report formats.
var ErrNoReport = fmt.Errorf("no test report found: expected go test -json, jest --json, vitest --reporter=json or an \"N passed, N failed\" line")

// ParseDiff reads the number of failing tests from a test command's
// output: go test -json events, a jest/vitest JSON report (vitest's json
// reporter writes jest's shape), or a plain "N passed, N failed" line.
//
// A report in which no test ran or failed (no test files, every test
// skipped, none collected) counts as one failure: Diff 0 means the tests
// pass, and nothing that ran cannot say so.
func ParseDiff(out string) (Result, error) {
	for _, parse := range []func(string) (Result, bool){parseGoJSON, parseJestJSON, parsePlain} {
		if r, ok := parse(out); ok {
			if r.Failed == 0 && r.Passed == 0 {
				r.Failed, r.Names, r.NoneRan = 1, append(r.Names, "no tests ran"), true
			}
			return r, nil
		}
	}
	return Result{}, ErrNoReport
}

type goEvent struct {
	Action  string `json:"Action"`
	Package string `json:"Package"`
	Test    string `json:"Test"`
}

// parseGoJSON counts leaf tests that failed (a parent fails with its
// subtests, and is not counted twice) plus packages that failed with no
// failing test (a build failure or a panic before any test).
func parseGoJSON(out string) (Result, bool) {
	r := Result{Format: "go-json"}
	seen := false
	failed := map[string]bool{}
	var order []string
	pkgFail := map[string]bool{}
	pkgHasTestFail := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var ev goEvent
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Action == "" {
			continue
		}
		seen = true
		switch {
		case ev.Test != "" && ev.Action == "pass":
			r.Passed++
		case ev.Test != "" && ev.Action == "fail":
			k := ev.Package + "\x00" + ev.Test
			if !failed[k] {
				failed[k] = true
				order = append(order, k)
			}
			pkgHasTestFail[ev.Package] = true
		case ev.Test == "" && ev.Action == "fail":
			pkgFail[ev.Package] = true
		}
	}
	if !seen {
		return r, false
	}
	for _, k := range order {
		leaf := true
		for _, o := range order {
			if strings.HasPrefix(o, k+"/") {
				leaf = false
				break
			}
		}
		if leaf {
			r.Failed++
			r.Names = append(r.Names, strings.SplitN(k, "\x00", 2)[1])
		}
	}
	for p := range pkgFail {
		if !pkgHasTestFail[p] {
			r.Failed++
			r.Names = append(r.Names, p+" (package failed)")
		}
	}
	return r, true
}

type jestReport struct {
	NumFailedTests      *int `json:"numFailedTests"`
	NumPassedTests      int  `json:"numPassedTests"`
	NumFailedTestSuites int  `json:"numFailedTestSuites"`
	NumTotalTests       int  `json:"numTotalTests"`
	TestResults         []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		AssertionResults []struct {
			FullName string `json:"fullName"`
			Status   string `json:"status"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// parseJestJSON finds the report object in the output (runners may print
// other lines around it). A suite that failed to load counts as one
// failure: it has no tests to fail but is not passing.
func parseJestJSON(out string) (Result, bool) {
	for i := strings.Index(out, "{"); i >= 0; {
		var rep jestReport
		dec := json.NewDecoder(strings.NewReader(out[i:]))
		if dec.Decode(&rep) == nil && rep.NumFailedTests != nil {
			r := Result{Format: "jest-json", Failed: *rep.NumFailedTests, Passed: rep.NumPassedTests}
			for _, s := range rep.TestResults {
				fails := 0
				for _, a := range s.AssertionResults {
					if a.Status == "failed" {
						fails++
						r.Names = append(r.Names, a.FullName)
					}
				}
				if s.Status == "failed" && fails == 0 {
					r.Failed++
					r.Names = append(r.Names, s.Name+" (suite failed)")
				}
			}
			return r, true
		}
		j := strings.Index(out[i+1:], "{")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return Result{}, false
}

// countRe is one count of a summary line: "3 passed", "1 failed",
// "2 errors" (pytest's collection errors, counted as failures).
var countRe = regexp.MustCompile(`(?:^|[\s,|(:=])(\d+) (passed|failed|errors?)\b`)

// parsePlain reads the last summary line, in the shapes runners print:
// "2 passed, 1 failed", jest's "Tests: 1 failed, 2 passed, 3 total",
// pytest's "== 1 failed, 2 passed in 0.1s ==", vitest's "Tests 2 failed |
// 1 passed". The closing line wins over any earlier progress line.
func parsePlain(out string) (Result, bool) {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		ms := countRe.FindAllStringSubmatch(lines[i], -1)
		if len(ms) == 0 {
			continue
		}
		r := Result{Format: "plain"}
		for _, m := range ms {
			n, _ := strconv.Atoi(m[1])
			if m[2] == "passed" {
				r.Passed += n
			} else {
				r.Failed += n
			}
		}
		return r, true
	}
	return Result{}, false
}
