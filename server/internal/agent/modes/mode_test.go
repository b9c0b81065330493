package modes

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Mode{"": Agent, "Plan": Plan, " phases ": Phases, "reconcile": Reconcile} {
		if m, err := Parse(in); err != nil || m != want {
			t.Errorf("%q: %v %v", in, m, err)
		}
	}
	if _, err := Parse("yolo"); err == nil || !strings.Contains(err.Error(), "agent, plan, phases or reconcile") {
		t.Fatalf("bad mode: %v", err)
	}
}

// Which tools each phase offers is toolpolicy's (TestWhitelists there);
// the phase itself says where the shell may only check.
func TestVerifyingLimitsTheShell(t *testing.T) {
	if !PhaseOf(Phases, string(Verifying)).ReadOnlyShell {
		t.Error("verifying must limit the shell to read-only commands")
	}
}

func TestPhaseTransitions(t *testing.T) {
	var p Progress
	steps := []struct {
		r    Report
		want State
		err  string
	}{
		{Report{Tool: ToolReportPlan, Steps: []string{"x"}}, Exploring, "not a report of the EXPLORING phase"},
		{Report{Tool: ToolReportFindings}, Exploring, "needs the findings"},
		{Report{Tool: ToolReportFindings, Text: "main.go has the bug"}, Planning, ""},
		{Report{Tool: ToolReportPlan}, Planning, "at least one step"},
		{Report{Tool: ToolReportPlan, Steps: []string{"fix", "test"}}, Patching, ""},
		{Report{Tool: ToolReportDone, Text: "patched"}, Patching, "not a report of the PATCHING phase"},
		{Report{Tool: ToolWrote, Text: "main.go"}, Patching, ""}, // step 1 of 2 patched
		{Report{Tool: ToolWrote, Text: "main_test.go"}, Verifying, ""},
		{Report{Tool: ToolReportBlocked, Text: "go test fails"}, Patching, ""}, // back to patch the last step
		{Report{Tool: ToolWrote, Text: "main.go"}, Verifying, ""},
		{Report{Tool: ToolReportFindings, Text: "again"}, Verifying, "not a report"},
		{Report{Tool: ToolReportDone, Text: "tests pass"}, Done, ""},
	}
	for i, s := range steps {
		err := p.Apply(s.r)
		if (err == nil) != (s.err == "") || (err != nil && !strings.Contains(err.Error(), s.err)) {
			t.Fatalf("step %d: err %v, want %q", i, err, s.err)
		}
		if p.State != s.want {
			t.Fatalf("step %d: state %s, want %s", i, p.State, s.want)
		}
	}
	if !p.Ended() || p.Findings != "main.go has the bug" || len(p.Plan) != 2 {
		t.Fatalf("progress: %+v", p)
	}
}

func TestThreeBlockedFail(t *testing.T) {
	p := Progress{State: Patching, Plan: []string{"a"}}
	for i := 0; i < MaxBlocked-1; i++ {
		if err := p.Apply(Report{Tool: ToolReportBlocked, Text: "no access"}); err != nil || p.State != Patching {
			t.Fatalf("blocked %d: %v %s", i, err, p.State)
		}
	}
	// Another step's block does not add to this one's.
	if err := p.Apply(Report{Tool: ToolReportBlocked, StepKey: "other"}); err != nil || p.State != Patching {
		t.Fatal("another step's block ended the run")
	}
	if err := p.Apply(Report{Tool: ToolReportBlocked, Text: "still"}); err != nil || p.State != Failed || p.Reason != "still" {
		t.Fatalf("third block: %+v", p)
	}
}

func TestNudgeNamesReportTool(t *testing.T) {
	if n := Nudge(PhaseOf(Phases, "")); !strings.Contains(n, "report_findings") || !strings.Contains(n, "does not end it") {
		t.Fatal(n)
	}
}
