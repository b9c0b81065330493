package modes

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Reconciler is what the reconcile loop needs from the engine: scoped
// agent runs (the whitelist and CheckWrite path rule of the step apply),
// running a command without a model, snapshots and persistence. The loop
// is written against it so its rules are tested without a model.
type Reconciler interface {
	// RunAgent runs one scoped agent (Specifier or Coder) to its end; an
	// error is the model failing after its retries.
	RunAgent(ctx context.Context, step Step, prompt string) error
	// RunTests runs a command in the workspace and returns its output.
	RunTests(ctx context.Context, command string) (string, error)
	// Snapshot records the workspace after a loop.
	Snapshot(ctx context.Context, loop int) error
	// Save persists the run so a restart resumes it; Publish tells a panel.
	Save(ctx context.Context, r RunState) error
	Publish(r RunState)
}

// RunState is a reconcile run, persisted after every step.
type RunState struct {
	Manifest Manifest `json:"manifest"`
	Step     Step     `json:"step"` // the step to run next
	Baseline int      `json:"baseline"`
	Diffs    []int    `json:"diffs,omitempty"` // after each loop
	// SpecRetries counts specifier runs sent back because their tests passed.
	SpecRetries int `json:"specRetries,omitempty"`
	// SpecBefore is what failed before the specifier's run (saved, so a
	// resumed specifier is judged against the same start).
	SpecBefore *Audit `json:"specBefore,omitempty"`
}

// Audit is what one audit read: the failing count and, where every
// report names its tests, the failing names.
type Audit struct {
	Failed int      `json:"failed"`
	Names  []string `json:"names,omitempty"`
	Named  bool     `json:"named,omitempty"`
	// NoneRan: no test ran at all (its one failure stands for that).
	NoneRan bool `json:"noneRan,omitempty"`
}

// NewFailures says whether after fails tests that before did not: the
// specifier's new tests must fail when run. Tests already failing (a run
// approved again after it failed, a workspace with broken tests) do not
// count; by name where the reports name tests, else by a higher count.
func NewFailures(before, after Audit) bool {
	if after.Failed == 0 || after.NoneRan {
		return false // no test failed, or none ran: nothing was specified
	}
	if before.NoneRan {
		return true
	}
	if before.Named && after.Named {
		old := map[string]bool{}
		for _, n := range before.Names {
			old[n] = true
		}
		for _, n := range after.Names {
			if !old[n] {
				return true
			}
		}
		return false
	}
	return after.Failed > before.Failed
}

// MaxSpecRetries bounds how often a specifier is sent back.
const MaxSpecRetries = 3

// ErrNotApproved is a run started on a manifest the user has not approved.
var ErrNotApproved = errors.New("the manifest is not approved yet")

// RunReconcile drives a run from its saved state to Ready or Failed
// (CrashLoopBackOff).
// Starting again from a saved state resumes at its step.
func RunReconcile(ctx context.Context, rc Reconciler, st RunState, l Limits) (RunState, error) {
	if !st.Manifest.Metadata.Approved {
		return st, ErrNotApproved
	}
	if err := st.Manifest.Validate(); err != nil {
		return st, err
	}
	if st.Step == "" {
		st.Step = Specifier
	}
	save := func() error {
		st.Manifest.Status.CurrentLoop = len(st.Diffs)
		rc.Publish(st)
		return rc.Save(ctx, st)
	}
	fail := func(why string) (RunState, error) {
		st.Manifest.Status.Phase, st.Manifest.Status.LastError = PhaseFailed, crashLoop(why)
		return st, save()
	}
	st.Manifest.Status.Phase = PhaseReconciling
	for {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		switch st.Step {
		case Specifier:
			if st.SpecBefore == nil {
				// What already fails is not the specifier's: a command
				// that reads as nothing (no tests yet) is nothing failing.
				before, err := auditDetail(ctx, rc, st.Manifest)
				if err != nil {
					if ctx.Err() != nil {
						return st, ctx.Err()
					}
					before = Audit{Named: true}
				}
				st.SpecBefore = &before
				if err := save(); err != nil {
					return st, err
				}
			}
			prompt := specifierPrompt(st.Manifest)
			if st.SpecRetries > 0 {
				prompt += "\n\nYour previous tests did not fail against the current code (or only tests that already failed did), so they check nothing new. Write tests that fail until the manifest is implemented."
			}
			if err := rc.RunAgent(ctx, Specifier, prompt); err != nil {
				return fail("specifier: " + err.Error())
			}
			after, err := auditDetail(ctx, rc, st.Manifest)
			if err != nil {
				return fail(err.Error())
			}
			before := *st.SpecBefore
			st.SpecBefore = nil
			if !NewFailures(before, after) {
				st.SpecRetries++
				if st.SpecRetries > MaxSpecRetries {
					return fail(fmt.Sprintf("the specifier's tests did not fail %d times", st.SpecRetries))
				}
				if err := save(); err != nil {
					return st, err
				}
				continue
			}
			st.Baseline, st.Step = after.Failed, Coder
		case Coder:
			if err := rc.RunAgent(ctx, Coder, coderPrompt(st.Manifest, st.last())); err != nil {
				return fail("coder: " + err.Error())
			}
			st.Step = Auditor
		case Auditor:
			d, err := audit(ctx, rc, st.Manifest)
			if err != nil {
				return fail(err.Error())
			}
			st.Diffs = append(st.Diffs, d)
			st.Manifest.Status.Diff = d
			if err := rc.Snapshot(ctx, len(st.Diffs)); err != nil {
				return fail("snapshot: " + err.Error())
			}
			v := Decide(st.Baseline, st.Diffs, l)
			st.Manifest.Status.Phase = v.Phase
			if v.Phase != PhaseReconciling {
				st.Manifest.Status.LastError = ""
				if v.Phase == PhaseFailed {
					st.Manifest.Status.LastError = crashLoop(v.Reason)
				}
				return st, save()
			}
			st.Step = Coder
		default:
			return fail(fmt.Sprintf("unknown step %q", st.Step))
		}
		if err := save(); err != nil {
			return st, err
		}
	}
}

func (st RunState) last() int {
	if len(st.Diffs) == 0 {
		return st.Baseline
	}
	return st.Diffs[len(st.Diffs)-1]
}

// TestExit is RunTests' error for a command that ran and exited non-zero
// (the output is still the report to read).
type TestExit struct{ Code int }

func (e *TestExit) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// audit runs the manifest's test command (and its e2e command) with no
// model call and returns Diff, the number of failing tests. A command
// that exits non-zero while reporting no failure counts one: its exit
// says something did not pass. Output with no report at all (the runner
// crashed first, or the command is wrong) is an error naming the end of
// the output, never a Diff of 0.
func audit(ctx context.Context, rc Reconciler, m Manifest) (int, error) {
	a, err := auditDetail(ctx, rc, m)
	return a.Failed, err
}

func auditDetail(ctx context.Context, rc Reconciler, m Manifest) (Audit, error) {
	total := Audit{Named: true}
	for _, cmd := range []string{m.Spec.TestCommand, m.Spec.E2ECommand} {
		if cmd == "" {
			continue
		}
		out, err := rc.RunTests(ctx, cmd)
		var exit *TestExit
		if err != nil && !errors.As(err, &exit) {
			return Audit{}, fmt.Errorf("auditor: %s: %w", cmd, err)
		}
		r, perr := ParseDiff(out)
		if perr != nil {
			code := 0
			if exit != nil {
				code = exit.Code
			}
			return Audit{}, fmt.Errorf("auditor: %s (exit %d): %w; its output ends: %s", cmd, code, perr, tail(out, 300))
		}
		if exit != nil && r.Failed == 0 {
			r.Failed, r.Names = 1, append(r.Names, fmt.Sprintf("%s exited %d", cmd, exit.Code))
		}
		total.NoneRan = r.NoneRan && (total.Failed == 0 || total.NoneRan)
		total.Failed += r.Failed
		total.Names = append(total.Names, r.Names...)
		total.Named = total.Named && r.Format != "plain"
	}
	return total, nil
}

// tail is the end of s, at most n bytes, trimmed.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + strings.ToValidUTF8(s[len(s)-n:], "")
	}
	return s
}

func specifierPrompt(m Manifest) string {
	return fmt.Sprintf("You are the Specifier. Write or extend tests (test files only) for this manifest so that they fail until it is implemented. The tests run with: %s\n\nIntent: %s\nBehaviors: %v\nInputs: %v\nStates: %v",
		m.Spec.TestCommand, m.Spec.Intent, m.Spec.FunctionalSpec.Behaviors, m.Spec.FunctionalSpec.Inputs, m.Spec.FunctionalSpec.States)
}

func coderPrompt(m Manifest, diff int) string {
	return fmt.Sprintf("You are the Coder. %d tests fail. Change the code (never the tests) until `%s` passes.\n\nIntent: %s",
		diff, m.Spec.TestCommand, m.Spec.Intent)
}
