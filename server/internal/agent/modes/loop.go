package modes

// Limits bound a reconcile run.
type Limits struct {
	MaxTotalLoops int // more loops than this → CrashLoopBackOff (default 10)
	MaxStagnation int // this many loops in a row without the diff falling ≥10% → CrashLoopBackOff (default 5)
}

// Normalized fills the defaults from the VibeOS seed.
func (l Limits) Normalized() Limits {
	if l.MaxTotalLoops <= 0 {
		l.MaxTotalLoops = 10
	}
	if l.MaxStagnation <= 0 {
		l.MaxStagnation = 5
	}
	return l
}

// Phase values of a manifest's status, as the VibeOS seed names them. A
// run that gives up is Failed, its lastError starting "CrashLoopBackOff:"
// with the reason (the loop cap, stagnation, the model failing).
const (
	PhasePending     = "Pending"
	PhaseReconciling = "Reconciling"
	PhaseReady       = "Ready"
	PhaseFailed      = "Failed"
	// PhaseCrashLoop is how runs saved before the seed's names ended; it
	// is read as Failed.
	PhaseCrashLoop = "CrashLoopBackOff"
)

// Ended says whether a status phase is final (Ready or Failed).
func Ended(phase string) bool {
	return phase == PhaseReady || phase == PhaseFailed || phase == PhaseCrashLoop
}

// crashLoop is the lastError of a run that gave up.
func crashLoop(why string) string { return "CrashLoopBackOff: " + why }

// Verdict is what the loop does after an audit.
type Verdict struct {
	Phase  string // Reconciling (go on), Ready or Failed (CrashLoopBackOff)
	Reason string
}

// Decide reads the diff after each loop so far (diffs[i] is loop i+1's;
// baseline is the diff before the first loop, after the specifier's tests
// were written) and says whether to go on.
func Decide(baseline int, diffs []int, l Limits) Verdict {
	l = l.Normalized()
	if n := len(diffs); n > 0 && diffs[n-1] == 0 {
		return Verdict{Phase: PhaseReady, Reason: "all tests pass"}
	}
	if len(diffs) >= l.MaxTotalLoops {
		return Verdict{Phase: PhaseFailed, Reason: "loop cap reached"}
	}
	if Stagnant(baseline, diffs, l.MaxStagnation) {
		return Verdict{Phase: PhaseFailed, Reason: "stagnation: the diff stopped falling"}
	}
	return Verdict{Phase: PhaseReconciling}
}

// Stagnant says whether the last n loops each failed to bring the diff
// at least 10% below the best diff seen before them.
func Stagnant(baseline int, diffs []int, n int) bool {
	if len(diffs) < n {
		return false
	}
	best := baseline
	run := 0
	for _, d := range diffs {
		// Falling by ≥10% of the best so far is progress; anything
		// else (including any rise) extends the stagnant run.
		if float64(d) <= 0.9*float64(best) && d < best {
			run = 0
		} else {
			run++
		}
		if d < best {
			best = d
		}
	}
	return run >= n
}
