package modes

import (
	"context"
	"strings"
	"testing"
)

// A test command that exits non-zero while its report shows no failure
// (a coverage threshold, a crash after the summary) is not Ready: the
// exit code counts as one failure.
func TestAuditNonZeroExitIsNotReady(t *testing.T) {
	f := &fakeRC{raw: []rawRun{{"0 passed, 3 failed", 1}, {"3 passed, 0 failed", 1}, {"3 passed, 0 failed", 0}}}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseReady || len(st.Diffs) != 2 || st.Diffs[0] != 1 {
		t.Fatalf("want diffs [1 0] then Ready: %+v %v", st, err)
	}
}

// A runner that crashes before printing its report ends the run with the
// reason and the end of its output, never with a Diff read as 0.
func TestAuditCrashBeforeReport(t *testing.T) {
	f := &fakeRC{raw: []rawRun{{"0 passed, 2 failed", 1}, {"panic: runtime error: index out of range\ngoroutine 1 [running]", 2}}}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseFailed || len(st.Diffs) != 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if le := st.Manifest.Status.LastError; !strings.Contains(le, "no test report") || !strings.Contains(le, "index out of range") || !strings.Contains(le, "exit 2") {
		t.Fatalf("lastError %q", le)
	}
}

// The specifier's new tests must fail: tests that already failed before
// it ran (a run approved again after it failed) do not count, by name
// where the report names tests, else by the count.
func TestSpecifierMustAddFailingTests(t *testing.T) {
	goFail := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			b.WriteString(`{"Action":"fail","Package":"p","Test":"` + n + `"}` + "\n")
		}
		return b.String() + `{"Action":"fail","Package":"p"}` + "\n"
	}
	// The same failing test before and after: sent back; a new one: on.
	f := &fakeRC{pre: goFail("TestOld"), raw: []rawRun{{goFail("TestOld"), 1}, {goFail("TestOld", "TestNew"), 1}, {"{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestOld\"}\n{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestNew\"}\n", 0}}}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseReady || len(f.agents) != 3 || f.agents[1] != Specifier || st.Baseline != 2 {
		t.Fatalf("%v %+v %v", f.agents, st, err)
	}
	// Plain reports compare counts: 2 failing before, still 2 after.
	f = &fakeRC{pre: "0 passed, 2 failed", outs: []int{2}}
	st, _ = RunReconcile(context.Background(), f, approved(), Limits{})
	if st.Manifest.Status.Phase != PhaseFailed || !strings.Contains(st.Manifest.Status.LastError, "did not fail") || f.preRuns != MaxSpecRetries+1 {
		t.Fatalf("%+v, %d audits before", st.Manifest.Status, f.preRuns)
	}
	// Nothing ran after the specifier either: it wrote no test.
	if NewFailures(Audit{NoneRan: true, Failed: 1}, Audit{NoneRan: true, Failed: 1, Names: []string{"no tests ran"}, Named: true}) {
		t.Fatal("no test is not a failing test")
	}
}
