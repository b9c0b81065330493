package modes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// fakeRC scripts the failing-test count each test run reports.
type fakeRC struct {
	outs      []int // failing tests per RunTests call, in order
	runs      int
	agents    []Step
	prompts   []string
	snaps     []int
	saved     []RunState
	failAgent Step
	// raw, when set, replaces the outputs: {output, exit code} per run.
	raw []rawRun
	// pre is the output of the audit before each specifier run (a test
	// run with no agent run since the last one); "" is no tests at all.
	pre        string
	preRuns    int
	agentsSeen int
}

type rawRun struct {
	out  string
	exit int
}

func (f *fakeRC) RunAgent(_ context.Context, s Step, p string) error {
	f.agentsSeen++
	f.agents = append(f.agents, s)
	f.prompts = append(f.prompts, p)
	if s == f.failAgent {
		return errors.New("model failed after 3 retries")
	}
	return nil
}

func (f *fakeRC) RunTests(context.Context, string) (string, error) {
	if f.agentsSeen == 0 {
		f.preRuns++
		if f.pre == "" {
			return "0 passed, 0 failed", nil
		}
		return f.pre, nil
	}
	f.agentsSeen = 0
	if f.raw != nil {
		r := f.raw[min(f.runs, len(f.raw)-1)]
		f.runs++
		if r.exit != 0 {
			return r.out, &TestExit{Code: r.exit}
		}
		return r.out, nil
	}
	n := f.outs[min(f.runs, len(f.outs)-1)]
	f.runs++
	return fmt.Sprintf("1 passed, %d failed\n", n), nil
}
func (f *fakeRC) Snapshot(_ context.Context, loop int) error {
	f.snaps = append(f.snaps, loop)
	return nil
}
func (f *fakeRC) Save(_ context.Context, r RunState) error { f.saved = append(f.saved, r); return nil }
func (f *fakeRC) Publish(RunState)                         {}

func approved() RunState {
	return RunState{Manifest: Manifest{Metadata: Metadata{Name: "snake", Approved: true},
		Spec: ManifestSpec{Intent: "snake", TestCommand: "npx vitest run"}}}
}

func TestReconcileReady(t *testing.T) {
	f := &fakeRC{outs: []int{8, 4, 0}}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseReady || len(st.Diffs) != 2 {
		t.Fatalf("%+v %v", st, err)
	}
	if got := fmt.Sprint(f.agents); got != "[specifier coder coder]" {
		t.Fatalf("agents %s", got)
	}
	if fmt.Sprint(f.snaps) != "[1 2]" {
		t.Fatalf("every loop is snapshotted: %v", f.snaps)
	}
}

func TestReconcileSpecifierSentBackWhenTestsPass(t *testing.T) {
	f := &fakeRC{outs: []int{0, 3, 0}}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseReady {
		t.Fatalf("%+v %v", st, err)
	}
	if fmt.Sprint(f.agents[:2]) != "[specifier specifier]" || !strings.Contains(f.prompts[1], "did not fail") {
		t.Fatalf("the specifier must be sent back: %v %q", f.agents, f.prompts[1])
	}
	f = &fakeRC{outs: []int{0}}
	st, _ = RunReconcile(context.Background(), f, approved(), Limits{})
	if st.Manifest.Status.Phase != PhaseFailed || len(f.agents) != MaxSpecRetries+1 {
		t.Fatalf("bounded send-backs: %+v, %d runs", st.Manifest.Status, len(f.agents))
	}
}

func TestReconcileStagnationAndCap(t *testing.T) {
	f := &fakeRC{outs: []int{10, 10}}
	st, _ := RunReconcile(context.Background(), f, approved(), Limits{})
	if st.Manifest.Status.Phase != PhaseFailed || len(st.Diffs) != 5 || !strings.Contains(st.Manifest.Status.LastError, "stagnation") {
		t.Fatalf("stagnation: %+v", st)
	}
	// Falling by ≥10% each loop never stagnates, so the cap ends it.
	f = &fakeRC{outs: []int{1000, 900, 800, 700, 600, 500, 400, 300, 200, 150, 100, 50}}
	st, _ = RunReconcile(context.Background(), f, approved(), Limits{})
	if st.Manifest.Status.Phase != PhaseFailed || len(st.Diffs) != 10 || !strings.Contains(st.Manifest.Status.LastError, "cap") {
		t.Fatalf("cap: %+v", st)
	}
}

func TestReconcileModelFailure(t *testing.T) {
	f := &fakeRC{outs: []int{5}, failAgent: Coder}
	st, err := RunReconcile(context.Background(), f, approved(), Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseFailed || !strings.Contains(st.Manifest.Status.LastError, "coder") {
		t.Fatalf("%+v %v", st, err)
	}
}

// A run saved mid-way resumes at its step, with its loop history.
func TestReconcileResumes(t *testing.T) {
	f := &fakeRC{outs: []int{8, 6}}
	ctx, cancel := context.WithCancel(context.Background())
	f2 := &cancelAfter{fakeRC: f, cancel: cancel, after: 2}
	_, err := RunReconcile(ctx, f2, approved(), Limits{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want cancelled, got %v", err)
	}
	saved := f.saved[len(f.saved)-1]
	if saved.Step != Coder || len(saved.Diffs) != 1 {
		t.Fatalf("saved %+v", saved)
	}
	g := &fakeRC{outs: []int{0}}
	st, err := RunReconcile(context.Background(), g, saved, Limits{})
	if err != nil || st.Manifest.Status.Phase != PhaseReady || fmt.Sprint(st.Diffs) != "[6 0]" || fmt.Sprint(g.agents) != "[coder]" {
		t.Fatalf("resumed %+v %v (agents %v)", st, err, g.agents)
	}
}

type cancelAfter struct {
	*fakeRC
	cancel func()
	after  int
}

func (c *cancelAfter) Snapshot(ctx context.Context, loop int) error {
	if loop >= c.after-1 {
		c.cancel()
	}
	return c.fakeRC.Snapshot(ctx, loop)
}

func TestReconcileNeedsApproval(t *testing.T) {
	st := approved()
	st.Manifest.Metadata.Approved = false
	if _, err := RunReconcile(context.Background(), &fakeRC{outs: []int{1}}, st, Limits{}); !errors.Is(err, ErrNotApproved) {
		t.Fatal(err)
	}
}
