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
