package modes

import (
	"errors"
	"os"
	"reflect"
	"sort"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The go sample is real go test -json output: TestFail fails, TestParent
// fails only through its subtest, which is the one counted.
func TestParseDiffGoJSON(t *testing.T) {
	r, err := ParseDiff(read(t, "gotest.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(r.Names)
	if r.Format != "go-json" || r.Failed != 2 || !reflect.DeepEqual(r.Names, []string{"TestFail", "TestParent/bad"}) {
		t.Fatalf("got %+v", r)
	}
}

func TestParseDiffGoBuildFailure(t *testing.T) {
	out := `{"Action":"start","Package":"x"}
{"Action":"output","Package":"x","Output":"FAIL\tx [build failed]\n"}
{"Action":"fail","Package":"x","Elapsed":0}`
	r, err := ParseDiff(out)
	if err != nil || r.Failed != 1 {
		t.Fatalf("a build failure must count as a failure: %+v %v", r, err)
	}
}

func TestParseDiffVitestJSON(t *testing.T) {
	r, err := ParseDiff(read(t, "vitest.json"))
	if err != nil || r.Format != "jest-json" || r.Failed != 2 || r.Passed != 2 {
		t.Fatalf("got %+v %v", r, err)
	}
}

// jest counts a suite that failed to load in no test; it still fails.
func TestParseDiffJestSuiteError(t *testing.T) {
	r, err := ParseDiff(read(t, "jest.txt"))
	if err != nil || r.Failed != 1 || r.Passed != 3 {
		t.Fatalf("got %+v %v", r, err)
	}
}

func TestParseDiffPlain(t *testing.T) {
	out := "running\n3 passed, 4 failed\nsummary: 5 passed, 2 failed, 1 skipped\n"
	r, err := ParseDiff(out)
	if err != nil || r.Format != "plain" || r.Failed != 2 || r.Passed != 5 {
		t.Fatalf("the closing line wins: %+v %v", r, err)
	}
}

func TestParseDiffNoReport(t *testing.T) {
	for _, out := range []string{"", "ok all good", `{"foo":1}`, "all checks passed, none failed"} {
		if _, err := ParseDiff(out); !errors.Is(err, ErrNoReport) {
			t.Errorf("%q: want ErrNoReport, got %v", out, err)
		}
	}
}
